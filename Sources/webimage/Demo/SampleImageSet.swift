import WebImage

/// A deterministic set of sample image files in every supported format — stills,
/// animations, 16-bit, translucent — plus a few broken files, made by our own painter
/// and coders so the tool needs no downloaded fixtures.
struct SampleImageSet {
    /// One sample file.
    struct Sample {
        /// The file name, with an extension that matches the content (or pretends to, for broken ones).
        var name: String
        /// The encoded bytes.
        var data: [UInt8]
    }

    /// The kinds of sample, cycled through as the set grows.
    private enum Kind: CaseIterable {
        case jpegLandscape, pngBadge, gifAnimation, webpLossy, apngAnimation, webpAnimation,
            jpegPortrait, pngDeep, webpLossless, retinaBadge, truncatedJPEG, notAnImage
    }

    /// The samples, `count` of them (at least one of each kind when `count` ≥ 12).
    let samples: [Sample]

    /// Paints and encodes `count` samples; `largestSide` caps the still images' longest side.
    init(count: Int = 12, largestSide: Int = 1600, coders: ImageCodersManager = .shared) throws(ImageError) {
        var samples: [Sample] = []
        for index in 0..<count {
            samples.append(try SampleImageSet.sample(at: index, largestSide: largestSide, coders: coders))
        }
        self.samples = samples
    }

    /// The file name of sample `index`, known without painting it.
    static func name(at index: Int) -> String {
        let number = String(index + 1).leftPadded(to: 4)
        switch kind(at: index) {
        case .jpegLandscape: return "\(number)-landscape.jpg"
        case .jpegPortrait: return "\(number)-portrait.jpg"
        case .pngBadge: return "\(number)-badge.png"
        case .retinaBadge: return "\(number)-badge@2x.png"
        case .pngDeep: return "\(number)-gradient-16bit.png"
        case .gifAnimation: return "\(number)-bounce.gif"
        case .apngAnimation: return "\(number)-bounce.png"
        case .webpAnimation: return "\(number)-bounce.webp"
        case .webpLossy: return "\(number)-landscape.webp"
        case .webpLossless: return "\(number)-badge.webp"
        case .truncatedJPEG: return "\(number)-truncated.jpg"
        case .notAnImage: return "\(number)-not-an-image.png"
        }
    }

    /// Paints and encodes sample `index` alone: the same bytes every time.
    static func sample(at index: Int, largestSide: Int = 1600, coders: ImageCodersManager = .shared) throws(ImageError) -> Sample {
        let round = index / Kind.allCases.count
        let hue = Double((index * 37) % 100) / 100
        let side = max(64, largestSide >> (round % 4))
        return try make(kind(at: index), name: name(at: index), hue: hue, side: side, coders: coders)
    }

    /// Whether sample `index` is deliberately undecodable, known without painting it.
    static func isBroken(at index: Int) -> Bool {
        let kind = kind(at: index)
        return kind == .truncatedJPEG || kind == .notAnImage
    }

    private static func kind(at index: Int) -> Kind {
        Kind.allCases[index % Kind.allCases.count]
    }

    private static func make(
        _ kind: Kind, name: String, hue: Double, side: Int, coders: ImageCodersManager
    ) throws(ImageError) -> Sample {
        func encoded(_ image: Image, _ format: ImageFormat, lossless: Bool = false) throws(ImageError) -> [UInt8] {
            Array(try coders.encode(image, as: format, options: ImageEncodeOptions(quality: 0.85, lossless: lossless)))
        }
        func animation(_ side: Int) -> Image {
            let frames = SamplePainter.bouncingBall(PixelSize(width: side, height: side * 3 / 4), frames: 12, hue: hue)
            return Image(frames: frames.map { ImageFrame(bitmap: $0, duration: 0.08) }, loopCount: 0)
        }
        let landscapeSize = PixelSize(width: side, height: side * 2 / 3)
        switch kind {
        case .jpegLandscape:
            let image = Image(bitmap: SamplePainter.landscape(landscapeSize, hue: hue))
            return Sample(name: name, data: try encoded(image, .jpeg))
        case .jpegPortrait:
            let image = Image(bitmap: SamplePainter.landscape(landscapeSize.transposed, hue: hue))
            return Sample(name: name, data: try encoded(image, .jpeg))
        case .pngBadge:
            let image = Image(bitmap: SamplePainter.badge(PixelSize(width: 256, height: 256), hue: hue))
            return Sample(name: name, data: try encoded(image, .png))
        case .retinaBadge:
            let image = Image(bitmap: SamplePainter.badge(PixelSize(width: 128, height: 128), hue: hue))
            return Sample(name: name, data: try encoded(image, .png))
        case .pngDeep:
            let image = Image(bitmap: SamplePainter.deepGradient(PixelSize(width: 320, height: 200)))
            return Sample(name: name, data: try encoded(image, .png))
        case .gifAnimation:
            return Sample(name: name, data: try encoded(animation(160), .gif))
        case .apngAnimation:
            return Sample(name: name, data: try encoded(animation(160), .png))
        case .webpAnimation:
            return Sample(name: name, data: try encoded(animation(200), .webp))
        case .webpLossy:
            let image = Image(bitmap: SamplePainter.landscape(landscapeSize, hue: hue))
            return Sample(name: name, data: try encoded(image, .webp))
        case .webpLossless:
            let image = Image(bitmap: SamplePainter.badge(PixelSize(width: 200, height: 200), hue: hue))
            return Sample(name: name, data: try encoded(image, .webp, lossless: true))
        case .truncatedJPEG:
            let image = Image(bitmap: SamplePainter.landscape(PixelSize(width: 320, height: 240), hue: hue))
            let whole = try encoded(image, .jpeg)
            return Sample(name: name, data: Array(whole.prefix(whole.count / 3)))
        case .notAnImage:
            return Sample(name: name, data: Array("<html>Not Found</html>\n".utf8))
        }
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
