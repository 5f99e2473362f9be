/// What an ``AnimatedImagePlayer`` does once it has let go of its lock: callbacks and the
/// decode it starts.
enum PlayerEffect: Sendable {
    case frameChanged(Int, ImageFrame)
    case loopFinished(Int)
    case finished
    case decode(frame: Int, generation: Int)
}
