import Foundation

/// Which history transactions to fetch (or delete), in which order, and how many.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
/// descriptor.predicate = #Predicate { $0.token > lastToken && $0.author == "importer" }
/// let transactions = try context.fetchHistory(descriptor)
/// ```
///
/// The predicate and sort descriptors run in memory, over the transactions of the container's
/// stores (oldest first unless `sortBy` says otherwise).
public struct HistoryDescriptor<TransactionType: HistoryTransaction> {
    /// The condition transactions must meet, or `nil` for all.
    public var predicate: Predicate<TransactionType>?
    /// The order of the fetched transactions.
    public var sortBy: [SortDescriptor<TransactionType>]
    /// The most transactions to return; `0`, the default, returns them all.
    public var fetchLimit: UInt64 = 0

    /// A descriptor of the transactions that match `predicate` (all when `nil`).
    public init(predicate: Predicate<TransactionType>? = nil) {
        self.predicate = predicate
        sortBy = []
    }

    /// A descriptor of the transactions that match `predicate`, in the order of `sortBy`.
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
