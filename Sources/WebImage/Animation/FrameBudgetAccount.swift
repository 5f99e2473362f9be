/// What an ``AnimationFrameBudget`` knows of one player: what it holds, what it needs and
/// wants, where it stands in line, and what it is allowed.
struct FrameBudgetAccount: Sendable {
    /// The player, to tell it when its allowance changes or bytes free up.
    weak var player: AnimatedImagePlayer?
    /// The bytes it holds (or has reserved for a decode in flight).
    var held = 0
    /// The bytes of its frame showing and its next frame: granted whatever the limit.
    var minimum: Int
    /// The most bytes it would hold: its frame showing and its own buffer's limit.
    var wanted: Int
    /// Whether it is on screen: visible players are served first.
    var isVisible: Bool
    /// When it last started playing, on the budget's count of `play()`s: the most recent is
    /// served first among players equally visible.
    var lastPlayed: Int
    /// The bytes it may hold, set by ``FrameBudgetLedger/allocate()``.
    var allowance = 0
    /// Whether a reservation of its was refused, so that it is told when bytes free up.
    var isWaiting = false
    /// Whether it has been told of a change and has not called the budget since, so that it
    /// is not told again meanwhile.
    var isTold = false

    /// Whether this account is served before `other`.
    func comesBefore(_ other: FrameBudgetAccount) -> Bool {
        if isVisible != other.isVisible { return isVisible }
        return lastPlayed > other.lastPlayed
    }
}
