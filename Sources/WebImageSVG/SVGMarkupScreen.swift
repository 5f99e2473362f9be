#if SVG
import CXML2
import WebImageCore

/// The markup rules of `SVGScreening`, checked on the document as libxml2 reads it, the
/// parser librsvg itself uses, so that the screen sees the elements, attributes and text
/// librsvg will see.
///
/// libxml2 reads the bytes from memory as a stream (its `xmlTextReader`, which frees each
/// node once read), with `XML_PARSE_NONET`, without entity substitution, DTD loading or
/// XInclude processing, with its default limits (no `XML_PARSE_HUGE`: 256 levels of
/// nesting, 10,000,000-byte text nodes), and with its errors kept from the console. Any
/// error ends the screen with a refusal. The rules, in the order of the document:
///
/// - A DOCTYPE with an internal subset (entity declarations and the like) and any entity
///   reference other than the five predefined ones and character references: librsvg
///   expands entities into markup, which would hide it from the rules below.
/// - Any element in the XInclude namespace, and any `<?xml-stylesheet?>` instruction:
///   librsvg loads both, from `data:` URLs too.
/// - Any element whose local name is in ``abortingElements``, in any namespace, and an
///   `feConvolveMatrix` whose `kernelMatrix` has over ``maximumKernelNumbers`` numbers.
/// - An `feTurbulence` with over ``maximumOctaves`` octaves: its render time grows with
///   them without bound (a render the image server runs in a decode worker is killed at
///   its deadline all the same; this keeps the library's own decodes short too).
/// - CSS (a `<style>` element's text and any attribute's value) with `@import` (in
///   `<style>` and `style` attributes) or a `url()` of a `data:` URL.
/// - An `href` in any namespace holding a `data:` URL, except on `<image>` and `<feImage>`,
///   where the URL must decode to a PNG, JPEG or GIF within the limits (see
///   ``SVGEmbeddedImages``). Other references are left alone: without a base URL librsvg
///   loads nothing else.
struct SVGMarkupScreen {
    /// The element names that make librsvg 2.54 abort: `feTile`, whose empty input region
    /// panics in `shared_surface.rs`.
    static let abortingElements: Set<String> = ["feTile"]

    /// The most numbers an `feConvolveMatrix`'s `kernelMatrix` may hold: librsvg 2.54
    /// panics (`Data storage buffer dimension mismatch` in nalgebra) on a longer one,
    /// whatever its `order` (measured with `rsvg-convert`: 400 numbers render, 401 abort).
    static let maximumKernelNumbers = 400

    /// The most octaves an `feTurbulence` may have: 24, which renders a 2048 × 2048 canvas
    /// in about 8 s (`rsvg-convert` on a loaded machine: 10 octaves of a 200 × 200 canvas
    /// took 0.13 s, 10,000 took 41 s).
    static let maximumOctaves = 24.0

    /// The namespaces of XInclude (the 2001 one librsvg reads, and its 2003 draft).
    static let xIncludeNamespaces: Set<String> = ["http://www.w3.org/2001/XInclude", "http://www.w3.org/2003/XInclude"]

    /// The elements whose `href` may hold a `data:` URL: they draw an image.
    static let dataURLElements: Set<String> = ["image", "feImage"]

    /// libxml2's one-time global set-up, which must happen before threads parse.
    private static let parserReady: Void = xmlInitParser()

    /// The embedded images admitted so far.
    private var images: SVGEmbeddedImages

    /// The depth of the `<style>` element being read, if one is.
    private var styleDepth: Int32?

    /// The text of the `<style>` element being read.
    private var styleText = ""

    /// Whether the DOCTYPE's internal subset has been checked (at the root element).
    private var checkedInternalSubset = false

    private init(options: ImageDecodeOptions) {
        images = SVGEmbeddedImages(options: options)
    }

    /// Reads the whole of `bytes` with libxml2 and refuses what the rules above refuse.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` naming the rule or libxml2's error;
    ///   ``ImageError/Code/imageTooLarge`` for embedded images over the limits.
    static func check(_ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(ImageError) {
        _ = parserReady
        guard let base = bytes.baseAddress, let count = Int32(exactly: bytes.count) else {
            throw ImageError(.badImageData, "libxml2 cannot read \(bytes.count) bytes")
        }
        let flags = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
        guard let reader = xmlReaderForMemory(base.assumingMemoryBound(to: CChar.self), count, nil, nil, Int32(flags)) else {
            throw ImageError(.badImageData, "libxml2 could not start reading the SVG")
        }
        let errors = Unmanaged.passRetained(SVGParserErrors())
        defer { errors.release() }
        defer { xmlFreeTextReader(reader) }
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                Unmanaged<SVGParserErrors>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
            },
            errors.toOpaque()
        )
        var screen = SVGMarkupScreen(options: options)
        while true {
            switch xmlTextReaderRead(reader) {
            case 0: return
            case 1: try screen.visit(reader)
            default:
                let reason = errors.takeUnretainedValue().first ?? "no reason given"
                throw ImageError(.badImageData, "libxml2 refused the SVG: \(reason)")
            }
        }
    }

    /// Checks the node the reader is on.
    private mutating func visit(_ reader: xmlTextReaderPtr) throws(ImageError) {
        let type = UInt32(truncatingIfNeeded: xmlTextReaderNodeType(reader))
        switch type {
        case XML_READER_TYPE_ELEMENT.rawValue:
            if !checkedInternalSubset {
                try Self.checkInternalSubset(reader)
                checkedInternalSubset = true
            }
            try element(reader)
        case XML_READER_TYPE_END_ELEMENT.rawValue:
            if let depth = styleDepth, xmlTextReaderDepth(reader) == depth {
                try Self.checkStyleSheet(styleText)
                styleDepth = nil
                styleText = ""
            }
        case XML_READER_TYPE_TEXT.rawValue, XML_READER_TYPE_CDATA.rawValue, XML_READER_TYPE_WHITESPACE.rawValue,
            XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue:
            if styleDepth != nil {
                styleText += Self.string(xmlTextReaderConstValue(reader))
            }
        case XML_READER_TYPE_DOCUMENT_TYPE.rawValue:
            try Self.checkInternalSubset(reader)
        case XML_READER_TYPE_ENTITY_REFERENCE.rawValue:
            throw ImageError(.badImageData, "the SVG refers to the entity &\(Self.string(xmlTextReaderConstName(reader)));")
        case XML_READER_TYPE_PROCESSING_INSTRUCTION.rawValue:
            let target = Self.string(xmlTextReaderConstName(reader))
            if target.lowercased() == "xml-stylesheet" {
                throw ImageError(.badImageData, "the SVG has an <?xml-stylesheet?> instruction")
            }
        default:
            break
        }
    }

    /// Checks an element's name and attributes, and starts collecting a `<style>`'s text.
    private mutating func element(_ reader: xmlTextReaderPtr) throws(ImageError) {
        let name = Self.string(xmlTextReaderConstLocalName(reader))
        if Self.abortingElements.contains(name) {
            throw ImageError(.badImageData, "the SVG uses <\(name)>, which makes librsvg 2.54 abort on some inputs")
        }
        if Self.xIncludeNamespaces.contains(Self.string(xmlTextReaderConstNamespaceUri(reader))) {
            throw ImageError(.badImageData, "the SVG has an XInclude element <\(name)>")
        }
        if name == "style", styleDepth == nil, xmlTextReaderIsEmptyElement(reader) == 0 {
            styleDepth = xmlTextReaderDepth(reader)
        }
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            try attribute(
                Self.string(xmlTextReaderConstLocalName(reader)),
                value: Self.string(xmlTextReaderConstValue(reader)),
                on: name
            )
        }
        xmlTextReaderMoveToElement(reader)
    }

    /// Checks one attribute of the element named `element`.
    private mutating func attribute(_ name: String, value: String, on element: String) throws(ImageError) {
        let css = SVGStyleText(value)
        if css.refersToDataURL {
            throw ImageError(.badImageData, "the SVG has a url() of a data: URL in the attribute \(name) of <\(element)>")
        }
        if name == "style", css.importsStyleSheet {
            throw ImageError(.badImageData, "the SVG has a CSS @import in the style attribute of <\(element)>")
        }
        if element == "feConvolveMatrix", name == "kernelMatrix", Self.numberCount(value) > Self.maximumKernelNumbers {
            throw ImageError(
                .badImageData,
                "the SVG has an feConvolveMatrix with over \(Self.maximumKernelNumbers) numbers, which makes librsvg 2.54 abort"
            )
        }
        if element == "feTurbulence", name == "numOctaves",
            let octaves = Double(value.trimmingCharacters(in: .whitespaces)), octaves > Self.maximumOctaves
        {
            throw ImageError(.badImageData, "the SVG has an feTurbulence of \(value) octaves, over the limit of \(Int(Self.maximumOctaves))")
        }
        guard name == "href" else { return }
        let reference = SVGDataURL.normalized(value)
        guard SVGDataURL.isDataURL(reference) else { return }
        guard Self.dataURLElements.contains(element) else {
            throw ImageError(.badImageData, "the SVG has a data: URL on <\(element)>; only <image> and <feImage> may embed images")
        }
        try images.admit(SVGDataURL.payload(of: reference), on: element)
    }

    /// Refuses a DOCTYPE whose internal subset declares anything.
    private static func checkInternalSubset(_ reader: xmlTextReaderPtr) throws(ImageError) {
        guard let node = xmlTextReaderCurrentNode(reader), let subset = node.pointee.doc?.pointee.intSubset else { return }
        guard subset.pointee.children == nil, subset.pointee.entities == nil, subset.pointee.pentities == nil else {
            throw ImageError(.badImageData, "the SVG's DOCTYPE has an internal subset (entity or other declarations)")
        }
    }

    /// Refuses a `<style>` element's text with `@import` or a `url()` of a `data:` URL.
    private static func checkStyleSheet(_ text: String) throws(ImageError) {
        let css = SVGStyleText(text)
        if css.importsStyleSheet {
            throw ImageError(.badImageData, "the SVG has a CSS @import in a <style> element")
        }
        if css.refersToDataURL {
            throw ImageError(.badImageData, "the SVG has a url() of a data: URL in a <style> element")
        }
    }

    /// How many numbers a list such as `kernelMatrix` holds, at least: each run of digits
    /// and points is a number, and a second point starts another, so `1-1`, `1,1` and
    /// `1.5.5` count two, as CSS reads them (an exponent counts one more, never fewer).
    static func numberCount(_ list: String) -> Int {
        var count = 0
        var inNumber = false, sawPoint = false
        for byte in list.utf8 {
            if (0x30...0x39).contains(byte) {
                if !inNumber {
                    count += 1
                    inNumber = true
                    sawPoint = false
                }
            } else if byte == UInt8(ascii: ".") {
                if !inNumber || sawPoint {
                    count += 1
                    inNumber = true
                }
                sawPoint = true
            } else {
                inNumber = false
            }
        }
        return count
    }

    /// A libxml2 string, empty for none.
    private static func string(_ text: UnsafePointer<xmlChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }
}
#endif
