import Foundation

/// One change of a history transaction.
public enum HistoryChange: Sendable {
    /// A model was inserted.
    case insert(any HistoryInsert)
    /// A model was updated.
    case update(any HistoryUpdate)
    /// A model was deleted.
    case delete(any HistoryDelete)

    /// The identifier of the model the change is about (for a delete, the model that is gone).
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let insert): insert.changedPersistentIdentifier
        case .update(let update): update.changedPersistentIdentifier
        case .delete(let delete): delete.changedPersistentIdentifier
        }
    }
}

/// A model inserted by a history transaction.
public protocol HistoryInsert<Model>: Sendable {
    /// The model type the change is about.
    associatedtype Model: PersistentModel
    /// The type of ``changeIdentifier``.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type of the transaction's identifier.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's position in its store's history (increasing).
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the model the change is about.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction that made the change.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// A model updated by a history transaction, with the properties that changed.
public protocol HistoryUpdate<Model>: Sendable {
    /// The model type the change is about.
    associatedtype Model: PersistentModel
    /// The type of ``changeIdentifier``.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type of the transaction's identifier.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's position in its store's history (increasing).
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the model the change is about.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction that made the change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The properties the save wrote (attributes and relationships), in declaration order.
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}

/// A model deleted by a history transaction, with the values its `.preserveValueOnDeletion`
/// attributes had.
public protocol HistoryDelete<Model>: Sendable {
    /// The model type the change is about.
    associatedtype Model: PersistentModel
    /// The type of ``changeIdentifier``.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type of the transaction's identifier.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's position in its store's history (increasing).
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the model the change is about.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction that made the change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The values the deleted model's `.preserveValueOnDeletion` attributes had.
    var tombstone: HistoryTombstone<Model> { get }
}

/// A model inserted in a Cairn store's history.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert, Hashable {
    /// Changes are numbered by an integer.
    public typealias ChangeIdentifier = Int64
    /// Transactions are numbered by an integer.
    public typealias TransactionIdentifier = Int64
    /// The change's position in its store's history (increasing).
    public let changeIdentifier: Int64
    /// The identifier of the model the change is about.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The identifier of the transaction that made the change.
    public let transactionIdentifier: Int64
}

/// A model updated in a Cairn store's history.
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate, Hashable {
    /// Changes are numbered by an integer.
    public typealias ChangeIdentifier = Int64
    /// Transactions are numbered by an integer.
    public typealias TransactionIdentifier = Int64
    /// The change's position in its store's history (increasing).
    public let changeIdentifier: Int64
    /// The identifier of the model the change is about.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The identifier of the transaction that made the change.
    public let transactionIdentifier: Int64
    /// The properties the save wrote (attributes and relationships), in declaration order.
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier && lhs.transactionIdentifier == rhs.transactionIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(transactionIdentifier)
    }
}

/// A model deleted in a Cairn store's history.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete {
    /// Changes are numbered by an integer.
    public typealias ChangeIdentifier = Int64
    /// Transactions are numbered by an integer.
    public typealias TransactionIdentifier = Int64
    /// The change's position in its store's history (increasing).
    public let changeIdentifier: Int64
    /// The identifier of the model the change is about.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The identifier of the transaction that made the change.
    public let transactionIdentifier: Int64
    /// The values the deleted model's `.preserveValueOnDeletion` attributes had.
    public let tombstone: HistoryTombstone<Model>
}

/// What a deleted model left in the history: the values of its attributes marked
/// `@Attribute(.preserveValueOnDeletion)`, as they were stored when it was deleted.
///
/// ```swift
/// if case .delete(let deleted as DefaultHistoryDelete<Trip>) = change {
///     let name = deleted.tombstone[\Trip.name] as? String
/// }
/// ```
public struct HistoryTombstone<Model: PersistentModel>: Sequence, Sendable {
    /// The preserved values, in declaration order.
    let entries: [(keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)]

    /// The value the attribute had, or `nil` when it is not preserved (or was `nil`).
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        entries.first { $0.keyPath == keyPath }?.value
    }

    public func makeIterator() -> IndexingIterator<[Any]> {
        entries.map { $0.value as Any }.makeIterator()
    }
}
