import NIOConcurrencyHelpers

/// One memory budget for the decoded frames of many ``AnimatedImagePlayer``s: a gallery of
/// forty animations holds one budget, not forty.
///
/// A player in a budget counts, while it plays or is paused, the frame showing and the
/// frames decoded ahead of it (and a decode in flight). The budget shares its ``limit``
/// out in this order:
///
/// 1. Every player gets its **minimum**: its frame showing and its next frame, so that it
///    keeps playing whatever else plays.
/// 2. What is left goes to players on screen (``AnimatedImagePlayer/isVisible``) before
///    those off it, and among those to the player that started playing most recently
///    first, each taking up to its own buffer limit (``AnimatedImagePlayer/maxBufferSize``).
///
/// The frames the players hold together never exceed ``limit``, unless their minimums
/// alone do: then they hold their minimums and no more. A player that loses its share to
/// one served before it drops the frames furthest ahead and decodes just its next frame,
/// and it takes its share back when bytes free up (a player stops, finishes, or leaves the
/// screen).
///
/// ```swift
/// let budget = AnimationFrameBudget(limit: 64 << 20)
/// let players = animations.map { AnimatedImagePlayer($0, frameBudget: budget) }
/// ```
public final class AnimationFrameBudget: Sendable {
    /// The budget players share unless given another: ``automaticLimit`` bytes.
    public static let shared = AnimationFrameBudget(limit: automaticLimit)

    /// The limit of ``shared``: 128 MiB, or less on a machine with less than 4 GiB (1/32 of
    /// the memory available).
    public static var automaticLimit: Int { min(128 << 20, ProcessMemory.available / 32) }

    /// The most bytes of decoded frames the budget's players hold together, unless their
    /// minimums alone are more.
    public let limit: Int

    private let ledger: NIOLockedValueBox<FrameBudgetLedger>

    /// A budget of `limit` bytes, shared by the players given it.
    public init(limit: Int) {
        self.limit = max(0, limit)
        ledger = NIOLockedValueBox(FrameBudgetLedger(limit: max(0, limit)))
    }

    /// The bytes of decoded frames the budget's players hold now.
    public var heldByteCount: Int {
        ledger.withLockedValue { $0.held }
    }

    /// The most bytes the budget's players have held together at any moment.
    public var peakHeldByteCount: Int {
        ledger.withLockedValue { $0.peakHeld }
    }

    /// The players playing or paused in this budget.
    public var playerCount: Int {
        ledger.withLockedValue { $0.accounts.count }
    }

    // MARK: Players' side (called under the player's lock; the budget never calls a player
    // back under it, but tells players of changes on a decoding thread)

    /// Counts `player` in, or keeps its account, as the player that started playing most
    /// recently.
    func join(_ player: AnimatedImagePlayer, minimum: Int, wanted: Int, isVisible: Bool) {
        change { ledger in
            ledger.plays += 1
            let id = ObjectIdentifier(player)
            var account =
                ledger.accounts[id]
                ?? FrameBudgetAccount(player: player, minimum: minimum, wanted: wanted, isVisible: isVisible, lastPlayed: 0)
            account.minimum = minimum
            account.wanted = max(minimum, wanted)
            account.isVisible = isVisible
            account.lastPlayed = ledger.plays
            ledger.accounts[id] = account
            return true
        }
    }

    /// Counts the player out, with everything it held.
    func leave(_ player: ObjectIdentifier) {
        change { ledger in
            guard let account = ledger.accounts.removeValue(forKey: player) else { return false }
            ledger.held -= account.held
            return true
        }
    }

    /// Records a player's new needs or place on screen.
    func update(_ player: ObjectIdentifier, minimum: Int, wanted: Int, isVisible: Bool) {
        change { ledger in
            guard var account = ledger.accounts[player] else { return false }
            // Heard from and within its allowance: tell it again when that changes.
            if account.held <= account.allowance { account.isTold = false }
            ledger.accounts[player] = account
            guard account.minimum != minimum || account.wanted != max(minimum, wanted) || account.isVisible != isVisible
            else { return false }
            account.minimum = minimum
            account.wanted = max(minimum, wanted)
            account.isVisible = isVisible
            ledger.accounts[player] = account
            return true
        }
    }

    /// The bytes a player may hold; `nil` when it is not counted in.
    func allowance(of player: ObjectIdentifier) -> Int? {
        ledger.withLockedValue { $0.accounts[player]?.allowance }
    }

    /// Reserves `bytes` more for a player, if that keeps it within its allowance and the
    /// budget within its ceiling; otherwise the player is told when bytes free up.
    func reserve(_ bytes: Int, for player: ObjectIdentifier) -> Bool {
        var granted = false
        tell { ledger in
            guard var account = ledger.accounts[player] else { return false }
            account.isTold = false
            if account.held + bytes <= account.allowance, ledger.held + bytes <= ledger.ceiling {
                account.held += bytes
                ledger.held += bytes
                ledger.peakHeld = max(ledger.peakHeld, ledger.held)
                granted = true
            } else {
                account.isWaiting = true
            }
            ledger.accounts[player] = account
            return false
        }
        return granted
    }

    /// Gives back `bytes` a player held.
    func release(_ bytes: Int, for player: ObjectIdentifier) {
        guard bytes != 0 else { return }
        tell { ledger in
            guard var account = ledger.accounts[player] else { return false }
            account.isTold = false
            account.held -= bytes
            ledger.held -= bytes
            ledger.accounts[player] = account
            return true
        }
    }

    /// Applies `body`, shares the limit out again if it changed anything, and tells the
    /// players concerned.
    private func change(_ body: (inout FrameBudgetLedger) -> Bool) {
        tell { ledger in
            guard body(&ledger) else { return false }
            ledger.allocate()
            return true
        }
    }

    /// Applies `body`, then tells the players concerned, each on a decoding thread, where it
    /// takes its own lock. `body` returns whether bytes were freed or shares changed, the
    /// only news for players refused before.
    private func tell(_ body: (inout FrameBudgetLedger) -> Bool) {
        let players = ledger.withLockedValue { ledger in
            let freed = body(&ledger)
            return ledger.playersToTell(freed: freed)
        }
        for player in players {
            DecodingWorkers.submit { player.budgetDidChange() }
        }
    }
}
