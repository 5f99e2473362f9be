import WebImage

extension ImageManager {
    /// Runs `request` to its end and records its answers, partial images and received
    /// bytes; `onBytes` hears each increment of the download's progress, `onPartial` each
    /// partial image. The record keeps the image itself only if `keepsImage`.
    func record(
        _ request: ImageRequest,
        keepsImage: Bool = false,
        onBytes: (@Sendable (Int64) -> Void)? = nil,
        onPartial: (@Sendable () -> Void)? = nil
    ) async -> LoadRecord {
        var record = LoadRecord()
        for await event in events(for: request) {
            switch event {
            case let .progress(received, _):
                if received > record.receivedBytes {
                    onBytes?(received - record.receivedBytes)
                    record.receivedBytes = received
                }
            case .partialImage:
                record.partials += 1
                onPartial?()
            case let .response(response):
                record.note(response, keepsImage: keepsImage)
            }
        }
        return record
    }
}
