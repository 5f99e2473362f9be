/// The reading end of ``ImageManager/events(for:)``: it lives as long as the stream is
/// read, and cancels the load when the reader lets go of the stream before its end.
final class LoadEventReader: Sendable {
    private let handOver: LoadEventHandOver
    private let load: Task<Void, Never>

    init(handOver: LoadEventHandOver, load: Task<Void, Never>) {
        self.handOver = handOver
        self.load = load
    }

    deinit {
        load.cancel()
    }

    /// The load's next event, or `nil` after its last.
    func next() async -> ImageLoadEvent? {
        await handOver.next()
    }
}
