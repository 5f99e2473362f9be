import Foundation
import WebImage

extension ImgproxyOptions {
    /// The options written as the server's own spec, in imgproxy's order of processing:
    /// trim, rotate, crop, resize (a fill's crop included), blur, sharpen, pixelate, extend,
    /// padding, watermark, then the format, with `dpr=`, `expires=`, `filename=`,
    /// `attachment`, `cachebuster=` and `keep_copyright` beside them.
    ///
    /// The format is the URL's (its `format` option or extension); with none it is left to
    /// the source (`format=auto`, which the route resolves without `Accept`), unless
    /// `configuration` turns on imgproxy's WebP or AVIF detection and `accept` names one.
    ///
    /// - Returns: The spec, and whether the answer depends on `Accept`.
    /// - Throws: ``ImageServerError`` 400 naming an option, or a form of one, the server
    ///   cannot answer yet.
    func nativeSpec(
        configuration: ImgproxyConfiguration, accept: String?, hasWatermark: Bool
    ) throws(ImageServerError) -> (
        spec: String, variesWithAccept: Bool
    ) {
        var operations: [String] = []
        if raw {
            operations.append("raw")
            operations += responseOperations
            return (operations.joined(separator: "|"), false)
        }
        guard autoRotate else { throw Self.unsupported("auto_rotate", "turning auto-rotation off is") }
        guard stripMetadata else { throw Self.unsupported("strip_metadata", "keeping metadata is") }
        guard !enforceThumbnail else { throw Self.unsupported("enforce_thumbnail", "the embedded thumbnail is") }
        guard skipProcessing.isEmpty else { throw Self.unsupported("skip_processing", "skipping by format is") }
        if let trimThreshold {
            guard !trimOptionsGiven else { throw Self.unsupported("trim", "a trim colour or equal sides are") }
            operations.append("trim=\(Int(min(255, max(0, trimThreshold)).rounded()))")
        }
        let angle = ((rotate % 360) + 360) % 360
        if angle != 0 { operations.append("rotate=\(angle)") }
        if cropWidth != 0 || cropHeight != 0 { operations.append(try crop()) }
        if let resize = try resize() { operations.append(resize) }
        if blur > 0 { operations.append("blur=\(Self.number(blur))") }
        if sharpen > 0 { operations.append("sharpen=\(Self.number(sharpen))") }
        if pixelate > 1 { operations.append("pixelate=\(pixelate)") }
        guard !extendAspectRatio else { throw Self.unsupported("extend_aspect_ratio", "extending to an aspect ratio is") }
        if extend { operations.append(try extended()) }
        if padding.contains(where: { $0 > 0 }) {
            operations.append("pad=" + padding.map(String.init).joined(separator: ",") + (background.map { ",bg=\($0)" } ?? ""))
        }
        if watermarkOpacity > 0 { operations.append(try watermark(hasWatermark: hasWatermark)) }
        let (format, variesWithAccept) = outputFormat(configuration: configuration, accept: accept)
        var encoding = ["format=\(format?.rawValue ?? "auto")", "q=\(outputQuality(format, configuration: configuration))"]
        if let background { encoding.append("bg=\(background)") }
        if maxBytes > 0 { encoding.append("maxbytes=\(maxBytes)") }
        if !stripColorProfile { encoding.append("icc=keep") }
        operations.append(encoding.joined(separator: ","))
        if dpr != 1 {
            guard (1...ImageServerSpec.maximumDevicePixelRatio).contains(dpr) else {
                throw Self.unsupported("dpr", "a ratio below 1 or above \(Self.number(ImageServerSpec.maximumDevicePixelRatio)) is")
            }
            operations.append("dpr=\(Self.number(dpr))")
        }
        if keepCopyright { operations.append("keep_copyright") }
        if !cacheBuster.isEmpty {
            let isToken =
                cacheBuster.count <= ImageServerSpec.maximumCacheBusterLength
                && cacheBuster.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) }
            // Any other text makes a token of its digest: still one result per text.
            let token = isToken ? cacheBuster : SHA256.hash(Array(cacheBuster.utf8)).map { String(format: "%02x", $0) }.joined()
            operations.append("cachebuster=\(token)")
        }
        operations += responseOperations
        return (operations.joined(separator: "|"), variesWithAccept)
    }

    /// `expires=`, `filename=` and `attachment`, which change no pixel.
    private var responseOperations: [String] {
        var operations: [String] = []
        if let expires { operations.append("expires=\(expires)") }
        if !filename.isEmpty { operations.append("filename=" + filename.replacingOccurrences(of: "|", with: "_")) }
        if returnAttachment { operations.append("attachment") }
        return operations
    }

    /// `crop=WxH,ANCHOR`: imgproxy's crop in pixels, at its own gravity or the request's.
    private func crop() throws(ImageServerError) -> String {
        guard cropWidth >= 1, cropHeight >= 1, cropWidth == cropWidth.rounded(), cropHeight == cropHeight.rounded() else {
            throw Self.unsupported("crop", "a side of 0 (the whole side) or a fraction of the picture is")
        }
        guard dpr == 1 else { throw Self.unsupported("crop", "a crop beside dpr is") }
        let anchor = try (cropGravity ?? gravity).native(option: "crop")
        return "crop=\(Int(cropWidth))x\(Int(cropHeight)),\(anchor)"
    }

    /// The resize: imgproxy's width and height times the zoom, by its resizing type, with
    /// no enlarging unless `enlarge` is on; `nil` when neither side is given.
    private func resize() throws(ImageServerError) -> String? {
        guard minWidth == 0, minHeight == 0 else { throw Self.unsupported("min-width/min-height", "a minimum size is") }
        guard width > 0 || height > 0 else {
            guard zoomX == 1, zoomY == 1 else { throw Self.unsupported("zoom", "zoom without a width or height is") }
            return nil
        }
        let w = width > 0 ? Int((Double(width) * zoomX).rounded()) : 0
        let h = height > 0 ? Int((Double(height) * zoomY).rounded()) : 0
        guard w <= TransformSpec.maximumDimension, h <= TransformSpec.maximumDimension else {
            throw ImageServerError(.badRequest, "bad options: resize: a side is over \(TransformSpec.maximumDimension) pixels")
        }
        let noEnlarge = enlarge ? "" : ",noenlarge"
        guard w > 0, h > 0 else {
            guard resizingType != "force" else { throw Self.unsupported("resizing_type", "force with one side is") }
            return (w > 0 ? "resize=\(w)" : "resize=x\(h)") + noEnlarge
        }
        switch resizingType {
        case "fill", "fill-down", "auto":
            guard resizingType != "fill-down" || enlarge else {
                throw Self.unsupported("resizing_type", "fill-down without enlarge is")
            }
            var text = "resize=\(w)x\(h),\(resizingType == "auto" ? "auto" : "fill")" + noEnlarge
            switch try gravity.native(option: "gravity") {
            case "center": break
            case "smart": text += ",smart"
            case let anchor: text += ",gravity=\(anchor)"
            }
            return text
        case "force": return "resize=\(w)x\(h),stretch" + noEnlarge
        default: return "resize=\(w)x\(h),inside" + noEnlarge
        }
    }

    /// `extend=WxH,GRAVITY`: the canvas of the requested size.
    private func extended() throws(ImageServerError) -> String {
        guard width > 0, height > 0 else { throw Self.unsupported("extend", "extending with one side is") }
        let gravity = extendGravity ?? ImgproxyGravity()
        guard gravity.type != "fp" else { throw Self.unsupported("extend", "a focus point for extend is") }
        let w = Int((Double(width) * zoomX).rounded())
        let h = Int((Double(height) * zoomY).rounded())
        return "extend=\(w)x\(h),\(try gravity.native(option: "extend"))" + (background.map { ",bg=\($0)" } ?? "")
    }

    /// `watermark=imgproxy,GRAVITY,OPACITY[,x=…][,y=…][,scale=…][,tile=grid]`: the watermark
    /// `IMGPROXY_WATERMARK_PATH` loaded, moved inwards from its position by the offsets (in
    /// pixels), fitted into `scale` times the result's sides when the scale is positive; at
    /// `re`, copies side by side over the whole result, the offsets the space between them
    /// (an offset under 1 a fraction of the result's side, as imgproxy's replicate reads it).
    private func watermark(hasWatermark: Bool) throws(ImageServerError) -> String {
        guard hasWatermark else {
            throw ImageServerError(.badRequest, "bad options: watermark: no watermark is configured (IMGPROXY_WATERMARK_PATH)")
        }
        let replicates = watermarkPosition == "re"
        let gravity = replicates ? "center" : ImgproxyGravity.nativeNames[watermarkPosition] ?? "center"
        var operation = ["watermark=\(ImgproxyConfiguration.watermarkName)", gravity, Self.number(watermarkOpacity)]
        for (axis, offset) in [("x", watermarkOffsetX), ("y", watermarkOffsetY)] where offset != 0 {
            if replicates, abs(offset) < 1 {
                operation.append("\(axis)=\(Self.number((offset * 100 * 1000).rounded() / 1000))p")
            } else {
                let limit = Double(TransformSpec.maximumDimension)
                operation.append("\(axis)=\(Int(min(limit, max(-limit, offset)).rounded(.toNearestOrEven)))")
            }
        }
        if watermarkScale > 0 { operation.append("scale=\(Self.number(min(100, max(0.001, watermarkScale))))") }
        if replicates { operation.append("tile=grid") }
        return operation.joined(separator: ",")
    }

    /// The format written: the URL's, or WebP or AVIF by `Accept` when the configuration
    /// detects or enforces them; `nil` for the source's own.
    private func outputFormat(configuration: ImgproxyConfiguration, accept: String?) -> (ImageFormat?, Bool) {
        let detects =
            configuration.enforceAVIF || configuration.enforceWebP || (format == nil && (configuration.autoAVIF || configuration.autoWebP))
        guard detects else { return (format, false) }
        let accepted = (accept ?? "").lowercased()
        if configuration.enforceAVIF || (format == nil && configuration.autoAVIF), accepted.contains("image/avif") { return (.avif, true) }
        if configuration.enforceWebP || (format == nil && configuration.autoWebP), accepted.contains("image/webp") { return (.webp, true) }
        return (format, true)
    }

    /// imgproxy's quality: the URL's `quality`, else its `format_quality` for the format,
    /// else the configured one for the format, else the configured default.
    private func outputQuality(_ format: ImageFormat?, configuration: ImgproxyConfiguration) -> Int {
        if quality > 0 { return quality }
        guard let format else { return configuration.quality }
        return formatQualities[format] ?? configuration.formatQualities[format] ?? configuration.quality
    }
}
