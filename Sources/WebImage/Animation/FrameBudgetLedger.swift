/// The accounts of an ``AnimationFrameBudget`` and their sums, guarded by its lock.
struct FrameBudgetLedger: Sendable {
    let limit: Int
    var accounts: [ObjectIdentifier: FrameBudgetAccount] = [:]
    var held = 0
    var peakHeld = 0
    /// The `play()`s counted so far, to order players by when they last started.
    var plays = 0

    /// The most the accounts may hold together: the limit, or the sum of their minimums when
    /// that is more (every player keeps its frame showing and its next frame).
    var ceiling: Int {
        max(limit, accounts.values.reduce(0) { $0 + $1.minimum })
    }

    /// Sets every account's allowance: its minimum, and then, in serving order, as much of
    /// what is left of the limit as it wants. Accounts whose allowance grew are marked as
    /// waiting, to be told.
    mutating func allocate() {
        var spare = max(0, limit - accounts.values.reduce(0) { $0 + $1.minimum })
        for (id, account) in accounts.sorted(by: { $0.value.comesBefore($1.value) }) {
            let extra = min(spare, account.wanted - account.minimum)
            spare -= extra
            let allowance = account.minimum + extra
            accounts[id]?.allowance = allowance
            // A player whose share grew may fill more of its buffer: it is told as if refused.
            if allowance > account.allowance, account.held < allowance { accounts[id]?.isWaiting = true }
        }
    }

    /// The players to tell that the budget changed: those holding more than their
    /// allowance (to give some back), and, when bytes were `freed` and some are free, those
    /// that were refused (to ask again); none already told and not heard from since.
    mutating func playersToTell(freed: Bool) -> [AnimatedImagePlayer] {
        let hasRoom = freed && held < ceiling
        var players: [AnimatedImagePlayer] = []
        for (id, account) in accounts where !account.isTold {
            let overdrawn = account.held > account.allowance
            let mayGrow = hasRoom && account.isWaiting && account.held < account.allowance
            guard overdrawn || mayGrow, let player = account.player else { continue }
            accounts[id]!.isWaiting = false
            accounts[id]!.isTold = true
            players.append(player)
        }
        return players
    }
}
