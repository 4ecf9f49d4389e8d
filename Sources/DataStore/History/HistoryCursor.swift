/// Where a store stands in its own history: the last transaction delivered, and the transactions
/// its own saves wrote since, which other processes' changes are told apart from.
struct HistoryCursor: Sendable {
    var lastTransaction: Int64 = 0
    var own: Set<Int64> = []
}
