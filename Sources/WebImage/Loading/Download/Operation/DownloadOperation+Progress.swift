import Foundation
import NIOCore

extension DownloadOperation {
    /// Tells the callers that want progress how much arrived, unless too little arrived
    /// since the last report (see ``ImageDownloaderConfiguration/minimumProgressInterval``).
    func reportProgress(received: Int64, expected: Int64, force: Bool) {
        let interval = min(max(downloader.configuration.minimumProgressInterval, 0), 1)
        let throttled = !force && interval > 0 && expected > 0 && received < expected
        let handlers = state.withLockedValue { state -> [DownloadHandler] in
            // Most callers want no progress: then nothing is allocated per chunk.
            guard state.handlers.values.contains(where: { $0.request.progress != nil }) else { return [] }
            if throttled {
                guard Double(received - state.lastReportedBytes) / Double(expected) >= interval else { return [] }
                state.lastReportedBytes = received
            }
            return state.handlers.values.filter { $0.request.progress != nil }
        }
        for handler in handlers {
            handler.reportProgress(received: received, expected: expected)
        }
    }

    /// Starts a partial decode of the bytes so far, unless one is already pending.
    func schedulePartialDecode(of body: ByteBuffer) {
        // A decryptor needs the whole body (as in SDWebImage).
        guard key.hooks.decryptor == nil else { return }
        let coders = downloader.configuration.coders
        state.withLockedValue { state in
            guard !state.isDecodingPartial, state.handlers.values.contains(where: \.wantsPartialImages) else { return }
            let optionsSet = Set(
                state.handlers.values.filter(\.wantsPartialImages).map {
                    effectiveDecodeOptions(for: $0.request, partial: true)
                })
            state.isDecodingPartial = true
            let data = Data(buffer: body)
            let previous = state.partialDecode
            state.partialDecode = Task {
                await previous?.value
                var images: [ImageDecodeOptions: Image] = [:]
                for options in optionsSet {
                    images[options] = try? await DecodingWorkers.run { () throws(ImageError) -> Image? in
                        try coders.decodeIncrementally(data, isComplete: false, options: options)
                    }
                }
                let handlers = self.state.withLockedValue { state in
                    state.isDecodingPartial = false
                    return Array(state.handlers.values)
                }
                for handler in handlers where handler.wantsPartialImages {
                    if let image = images[self.effectiveDecodeOptions(for: handler.request, partial: true)] {
                        handler.deliverPartial(image)
                    }
                }
            }
        }
    }
}
