import Foundation

// SwiftData's history (iOS 18): every save records a transaction with the inserts, updates and
// deletes it wrote, in order, so a program can ask "what changed since the token I processed
// last?". The protocols are SwiftData's; the Default… types are what the default store (here,
// each SQLite store of a container) gives. History.swift records and reads them.

/// A bookmark in a store's history: transactions after it are the ones not processed yet.
public protocol HistoryToken: Comparable, Codable, Hashable, Identifiable, Sendable {
    /// The token's serializable value.
    associatedtype TokenType: Codable, Hashable, Sendable
    /// The store this token covers.
    var storeIdentifier: String { get }
    /// The token's value, to store and compare.
    var tokenValue: TokenType? { get }
}

/// A group of changes written together: one save of one context to one store.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    /// The type of the transaction's ``token``.
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    /// The type of ``transactionIdentifier``.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The saving context's author, if it set one.
    var author: String? { get }
    /// The changes, in the order they were written.
    var changes: [HistoryChange] { get }
    /// The identifier of the store the transaction was written to.
    var storeIdentifier: String { get }
    /// When the transaction was saved.
    var timestamp: Date { get }
    /// The transaction's token: fetch transactions after it to continue from here.
    var token: TokenType { get }
    /// The transaction's number in its store.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// The token of a transaction in a Cairn store: its position in the store's history.
/// Compare tokens of one store (`transaction.token > lastProcessed`); store it with `Codable`.
public struct DefaultHistoryToken: HistoryToken {
    /// A dictionary from store identifier to transaction number.
    public typealias TokenType = [String: Int]
    /// The transaction's number in its store (increasing, never reused).
    public let id: Int
    /// The identifier of the store the transaction was written to.
    public let storeIdentifier: String

    /// The token as a dictionary from store identifier to transaction number.
    public var tokenValue: [String: Int]? { [storeIdentifier: id] }

    init(id: Int, storeIdentifier: String) {
        self.id = id
        self.storeIdentifier = storeIdentifier
    }

    public static func < (lhs: DefaultHistoryToken, rhs: DefaultHistoryToken) -> Bool { lhs.id < rhs.id }
}

/// One save of one context to one store, with its changes in the order they were written
/// (deletes, inserts, then updates, each in the context's order).
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// Cairn's token type.
    public typealias TokenType = DefaultHistoryToken
    /// Transactions are numbered by an integer.
    public typealias TransactionIdentifier = Int64

    /// The identifier of the store the transaction was written to.
    public let storeIdentifier: String
    /// The program that saved: its bundle identifier, or on Linux its process name.
    public let bundleIdentifier: String
    /// The saving process's identifier, as text.
    public let processIdentifier: String
    /// The transaction's number in its store.
    public let transactionIdentifier: Int64
    /// The transaction's token: fetch transactions after it to continue from here.
    public let token: DefaultHistoryToken
    /// The saving context's ``ModelContext/author``.
    public let author: String?
    /// The changes, in the order they were written.
    public let changes: [HistoryChange]
    /// When the transaction was saved.
    public let timestamp: Date

    public var id: Int64 { transactionIdentifier }

    public static func == (lhs: DefaultHistoryTransaction, rhs: DefaultHistoryTransaction) -> Bool {
        lhs.storeIdentifier == rhs.storeIdentifier && lhs.transactionIdentifier == rhs.transactionIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storeIdentifier)
        hasher.combine(transactionIdentifier)
    }
}
