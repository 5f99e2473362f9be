import Foundation
import Testing
import WebImage
import WebImageCore

/// Nothing a request reaches may trap on an allocation: pixels and per-image scratch come
/// from the checked entry points (`Array(repeating:imageSized:)`,
/// `Array(unsafeUninitializedImageSized:initializingWith:)`,
/// `Bitmap(zeroedWidth:height:pixelFormat:)`), which throw `imageTooLarge`.
@Suite struct RequestPathAllocationTests {
    /// The source folders a server request runs through.
    static let requestPathFolders = [
        "WebImageCore", "WebImage", "WebImageProcessing", "WebImageCoders", "WebImageConversion", "WebImageColor", "WebImageServer",
        "WebImagePNG", "WebImageJPEG", "WebImageWebP", "WebImageGIF", "WebImageTIFF", "WebImageAVIF", "WebImageHEIF",
        "WebImageJXL", "WebImageBMP", "WebImageSVG",
    ]

    /// The unchecked allocations reviewed as small or bounded: a file, a fragment of its
    /// line, and why it cannot ask for more than the machine has.
    static let reviewed: [(file: String, code: String, reason: String)] = [
        (
            "WebImageCore/Image/Bitmap.swift", "[UInt8](repeating: 0, count: width * height",
            "the trapping initialiser kept for samples and tests; no request-path caller (checked below)"
        ),
        ("WebImageCore/Image/ImageCopyright.swift", "count: 4 - value.count", "pads a four-byte field"),
        ("WebImageJPEG/JPEGMetadata+HeaderSegments.swift", "var bytes = [UInt8](repeating: 0, count: 2)", "a JPEG's two-byte signature"),
        ("WebImageJPEG/JPEGMetadata+HeaderSegments.swift", "var lengthBytes = [UInt8](repeating: 0, count: 2)", "a segment's two-byte length"),
        ("WebImageCore/Pixels/ResamplingWeights.swift", "count: last - first + 1", "one filter span, at most the source's side"),
        ("WebImage/Loading/Download/DownloadQueue.swift", "count: 3", "three priority lines"),
        ("WebImage/Placeholder/ThumbHash+Encoding.swift", "count: width)", "a row of a bitmap already reduced to ThumbHash.maximumSide"),
        ("WebImage/Placeholder/ThumbHash+Decoding.swift", "count: width * height * 4", "ThumbHash.placeholderSide (32) a side"),
        ("WebImage/Placeholder/ThumbHash+Decoding.swift", "count: columns)", "at most 7 cosine terms"),
        ("WebImage/Placeholder/BlurHash.swift", "count: width * height * 4", "BlurHash.image(width:height:) draws at the caller's size; no server request calls it"),
        ("WebImage/Placeholder/BlurHash.swift", "count: count * length", "at most 9 terms times a side of an image already in memory"),
        ("WebImage/Placeholder/Base83.swift", "count: 128", "an ASCII table"),
        ("WebImageProcessing/SmartCrop/EntropyCropFinder.swift", "count: 256", "a histogram"),
        ("WebImageProcessing/SmartCrop/AttentionCropFinder.swift", "count: width * height)", "the 32 × 32 map"),
        ("WebImageProcessing/SmartCrop/AttentionCropFinder.swift", "count: input.count", "the 32 × 32 map"),
        ("WebImageProcessing/Spec/TransformSpecParser.swift", "count: 4", "four sides"),
        ("WebImageProcessing/Transformers/HistogramEqualizingImageTransformer.swift", "count: 256), count: 3)", "three 256-level histograms"),
        ("WebImageProcessing/Filters/AdditiveFeedbackRandom.swift", "count: 31)", "the generator's 31 words"),
        ("WebImage/Cache/ImageCachesManager.swift", "count: targets.count", "one answer per cache"),
        (
            "WebImageServer/Workers/DecodeWorker.swift", "var data = Data(count: count)",
            "in the decode worker, whose refused allocation ends it (answered 422), never the server; at most Int32.max"
        ),
        ("WebImageServer/Workers/DecodeWorkerProcess.swift", "var length = Data(count: 8)", "an answer's eight-byte length"),
        (
            "WebImageServer/Workers/DecodeWorkerProcess.swift", "var fields = Data(count: count)",
            "at most the exchange's maxAnswerBytes: 1 MiB and a colour profile of at most the decode's plan (held in the memory budget) and 64 MiB; the pixels are in the pixel file"
        ),
        ("WebImage/Cache/Disk/MD5.swift", "remaining < 56 ? 64 : 128", "one or two digest blocks"),
        ("WebImage/Cache/Disk/MD5.swift", "unsafeUninitializedCapacity: 32", "a 32-character digest"),
        ("WebImage/Cache/Disk/FileSystem.swift", "count: size)", "an extended attribute, at most 64 KiB on Linux"),
        ("WebImageConversion/StripQueue.swift", "count: stripBytes", "64 rows of a JPEG at most 65,535 pixels wide"),
        ("WebImageColor/ICCProfileDescription.swift", "count: Int(needed)", "a description string inside a profile already in memory"),
        ("WebImagePNG/PNGCoder+FileThumbnail.swift", "PNGChunkReader.signature.count", "the 8-byte signature"),
        ("WebImagePNG/PNGCoder+FileThumbnail.swift", "count: 8)", "a chunk header"),
        ("WebImagePNG/PNGTruecolorRows.swift", "count: Int(rowBytes))", "the row of a one-pixel stand-in, at most nine bytes"),
        ("WebImageGIF/GIFIndexedImage+MedianCut.swift", "count: 1 << 15", "a 15-bit colour table"),
        ("WebImageGIF/GIFIndexedImage+MedianCut.swift", "count: 3 << 15", "a 15-bit colour table"),
        ("WebImageGIF/GIFIndexedImage.swift", "count: paletteSize * 3", "at most 256 colours"),
        ("WebImageGIF/GIFReader.swift", "count: 256", "a colour table"),
        ("WebImageTIFF/TIFFPageWriter.swift", "count: rowBytes", "one row of a bitmap already in memory"),
        ("WebImageTIFF/TIFFPageReader.swift", "count: 1024", "libtiff's message buffer"),
        ("WebImageHEIF/HEIFReader.swift", "count: size)", "the colour profile of a box inside the input"),
        ("WebImageJXL/JXLWriter.swift", "count: 64 << 10", "the 64 KiB output chunk"),
        ("WebImageJXL/JXLReader.swift", "count: size)", "a colour profile, refused above 64 MiB"),
        ("WebImageBMP/BMPWriter.swift", "count: 48", "the fixed colour-space fields"),
        ("WebImageBMP/BMPWriter.swift", "count: stride - bitmap.width", "at most 3 bytes of row padding"),
        ("WebImageServer/Fetching/IPAddress.swift", "INET6_ADDRSTRLEN", "an address string"),
        ("WebImageServer/Signing/HMACSHA256.swift", "SHA256.blockByteCount - blockKey.count", "pads one 64-byte block"),
        ("WebImageServer/Signing/SHA256.swift", "Self.blockByteCount - pending.count", "pads one 64-byte block"),
        ("WebImageServer/Signing/SHA256.swift", "Self.blockByteCount - 8 - pending.count", "pads one 64-byte block"),
        ("WebImageServer/Signing/HMACSHA1.swift", "SHA1.blockByteCount - blockKey.count", "pads one 64-byte block"),
        ("WebImageServer/Signing/SHA1.swift", "count: 80)", "SHA-1's 80-word message schedule"),
        (
            "WebImageServer/Dialects/ThumborFilter+Arguments.swift", "count: patterns.count - arguments.count",
            "pads a filter's arguments to its parameters, at most five"
        ),
    ]

    /// Whether `code` allocates an array that traps when it cannot be had (`count:` copies
    /// of a value, uninitialised capacity, `Data(count:)`), or makes a zeroed bitmap with the
    /// trapping initialiser; the checked forms (`imageSized:`) pass.
    static func allocatesUnchecked(_ code: String) -> Bool {
        let repeating = ["](repeating:", "Array(repeating:", "init(repeating:"].contains { code.contains($0) }
        if repeating, code.contains(", count:"), !code.contains(".initialize(repeating:") { return true }
        if code.contains("Bitmap(width:") { return !code.contains("pixels:") }
        return code.contains("unsafeUninitializedCapacity") || code.contains("Data(count:")
    }

    /// The `Sources` folder of this checkout.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every line under the request-path folders with an unchecked allocation, as
    /// (path under `Sources`, line).
    static func uncheckedAllocations() throws -> [(file: String, line: String)] {
        var found: [(file: String, line: String)] = []
        for folder in requestPathFolders {
            let root = sources.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            for relative in files where relative.hasSuffix(".swift") && !relative.hasSuffix("Array+ImageSized.swift") {
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.hasPrefix("//"), allocatesUnchecked(code) else { continue }
                    found.append(("\(folder)/\(relative)", code))
                }
            }
        }
        return found
    }

    /// Fails when an allocation that traps on running out appears on the request path
    /// outside the reviewed small or bounded sites, and when a reviewed site is gone (so
    /// the list stays honest).
    @Test func noTrappingAllocationIsReachableFromARequest() throws {
        let found = try Self.uncheckedAllocations()
        #expect(found.count > 10, "the scan read the sources")
        for site in found {
            let isReviewed = Self.reviewed.contains { site.file == $0.file && site.line.contains($0.code) }
            #expect(isReviewed, "\(site.file): \(site.line) — allocate it with Array(repeating:imageSized:) or review it")
        }
        for entry in Self.reviewed {
            let isPresent = found.contains { $0.file == entry.file && $0.line.contains(entry.code) }
            #expect(isPresent, "\(entry.file): \(entry.code) is reviewed but no longer there (\(entry.reason))")
        }
    }

    /// A transform asked for a canvas no memory holds gives up (no image) instead of
    /// trapping: 1,000,000 × 1,000,000 RGBA pixels are 4 TB.
    @Test func aCanvasNoMemoryCanHoldIsRefusedInsteadOfTrapping() {
        let image = Image(bitmap: Bitmap(width: 2, height: 2))
        #expect(ExtendingImageTransformer(size: PixelSize(width: 1_000_000, height: 1_000_000)).transform(image) == nil)
        #expect(ExtendingImageTransformer(size: PixelSize(width: 4, height: 3)).transform(image)?.pixelSize == PixelSize(width: 4, height: 3))
    }
}
