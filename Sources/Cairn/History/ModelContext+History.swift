import Foundation

extension ModelContext {
    /// The history transactions a descriptor selects: every save to the container's stores,
    /// oldest first unless `sortBy` says otherwise.
    ///
    /// ```swift
    /// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
    /// descriptor.predicate = #Predicate { $0.token > lastToken }
    /// for transaction in try context.fetchHistory(descriptor) {
    ///     for change in transaction.changes {
    ///         if case .insert(let insert as DefaultHistoryInsert<Trip>) = change { … }
    ///     }
    /// }
    /// // SELECT "id", "timestamp", "author", … FROM "_CairnHistoryTransaction" ORDER BY "id"
    /// ```
    ///
    /// The predicate and sort run in memory over every transaction still stored; the changes
    /// of a transaction are decoded only when it is selected (or when the predicate reads
    /// `changes`). Delete what you have processed (``deleteHistory(_:)``) to keep fetches short.
    ///
    /// - Throws: ``SwiftDataError/historyTokenExpired`` when the predicate selects a
    ///   transaction that ``deleteHistory(_:)`` removed (checked on the newest removed one);
    ///   ``SwiftDataError/invalidTransactionFetchRequest`` for a transaction type other than
    ///   ``DefaultHistoryTransaction`` (in a container of custom stores: other than the
    ///   `HistoryType` of a store that conforms to ``HistoryProviding``).
    public func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T] {
        // A container of custom stores: their history (DataStore/HistoryProviding).
        if !state.dataStores.isEmpty { return try dataStoreHistory(descriptor) }
        let (stored, lastDeleted) = try storedHistory(T.self)
        if let predicate = descriptor.predicate {
            for removed in lastDeleted where try predicate.evaluate(removed.newest) && !predicate.evaluate(removed.origin) {
                throw SwiftDataError.historyTokenExpired.with(
                    reason: "The descriptor asks for history that deleteHistory removed (up to transaction "
                        + "\(removed.newest.transactionIdentifier) of store '\(removed.newest.storeIdentifier)')")
            }
        }
        return try select(stored, descriptor, decodingChanges: true)
    }

    /// Removes the history transactions a descriptor selects (as ``fetchHistory(_:)`` would
    /// return them). A later fetch whose predicate would select one of them throws
    /// ``SwiftDataError/historyTokenExpired``.
    ///
    /// ```swift
    /// try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(
    ///     predicate: #Predicate { $0.token <= processedToken }))
    /// // DELETE FROM "_CairnHistoryTransaction" WHERE "id" IN (SELECT value FROM json_each(?))
    /// ```
    public func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws {
        if !state.dataStores.isEmpty { return try deleteDataStoreHistory(descriptor) }
        let (stored, _) = try storedHistory(T.self)
        let doomed = try select(stored, descriptor, decodingChanges: false).compactMap { $0 as? DefaultHistoryTransaction }
        for store in state.stores {
            let removed = doomed.filter { $0.storeIdentifier == store.identifier }
            guard let newest = removed.max(by: { $0.transactionIdentifier < $1.transactionIdentifier }) else { continue }
            guard store.configuration.allowsSave else {
                throw ModelError(.storeFailure, message: "The store '\(store.identifier)' was opened with allowsSave: false; its history cannot be deleted")
            }
            let delete = SQLDelete(from: "_CairnHistoryTransaction")
                .where(store.dialect.key(.column("id"), in: removed.map(\.transactionIdentifier)))
            try store.write { connection in
                try connection.execute(delete)
                let previous = try Self.lastDeleted(in: connection, store: store)
                if previous.map({ $0.transactionIdentifier < newest.transactionIdentifier }) ?? true {
                    try connection.execute(HistoryStorage.setMetadata(HistoryStorage.lastDeletedKey, to: Self.describe(newest)))
                }
            }
        }
    }

    // MARK: - Reading

    /// Every stored transaction, its changes not decoded yet, and for each store that removed
    /// history, the newest transaction removed and the same transaction moved before all
    /// history: a predicate true of the first and false of the second asks for removed
    /// history by its token or time.
    private func storedHistory<T: HistoryTransaction>(_ type: T.Type) throws -> ([StoredHistoryRow], [(newest: T, origin: T)]) {
        guard T.self == DefaultHistoryTransaction.self else {
            throw SwiftDataError.invalidTransactionFetchRequest.with(
                reason: "Cairn's stores keep DefaultHistoryTransaction history; \(T.self) is not one")
        }
        var transactions: [StoredHistoryRow] = []
        var removed: [(newest: T, origin: T)] = []
        for store in state.stores {
            let (stored, lastDeleted) = try store.read { connection -> ([[DatabaseValue]], DefaultHistoryTransaction?) in
                // A read-only store opened before Cairn kept history has no such table.
                guard try connection.tableExists("_CairnHistoryTransaction") else { return ([], nil) }
                let rows = try connection.rows(RenderedSQL(
                    sql: #"SELECT "id", "timestamp", "author", "bundleIdentifier", "processIdentifier", "changes" FROM "_CairnHistoryTransaction" ORDER BY "id""#,
                    arguments: []))
                return (rows, try Self.lastDeleted(in: connection, store: store))
            }
            for row in stored { transactions.append(StoredHistoryRow(row, store: store)) }
            if let lastDeleted, let newest = lastDeleted as? T,
                let origin = DefaultHistoryTransaction(moving: lastDeleted, to: 0) as? T
            {
                removed.append((newest, origin))
            }
        }
        // Several stores: their saves interleave in time.
        if state.stores.count > 1 {
            transactions.sort {
                ($0.shallow.timestamp, $0.shallow.storeIdentifier) < ($1.shallow.timestamp, $1.shallow.storeIdentifier)
            }
        }
        return (transactions, removed)
    }

    /// The transactions a descriptor selects, in its order. The predicate runs on transactions
    /// without their changes unless it reads them; only the selected ones are decoded (when
    /// `decodingChanges`), before sorting, since a sort may read them.
    private func select<T: HistoryTransaction>(
        _ stored: [StoredHistoryRow], _ descriptor: HistoryDescriptor<T>, decodingChanges: Bool
    ) throws -> [T] {
        var rows = stored
        if let predicate = descriptor.predicate {
            if HistoryPredicateReads.changes(predicate) {
                var kept: [StoredHistoryRow] = []
                for row in rows {
                    let full = try row.decoded()
                    if let candidate = full as? T, try predicate.evaluate(candidate) { kept.append(row.with(full)) }
                }
                rows = kept
            } else {
                rows = try rows.filter { row in try (row.shallow as? T).map(predicate.evaluate) ?? false }
            }
        }
        if descriptor.sortBy.isEmpty, descriptor.fetchLimit > 0, UInt64(rows.count) > descriptor.fetchLimit {
            rows = Array(rows.prefix(Int(clamping: descriptor.fetchLimit)))
        }
        var selected = try rows.compactMap { row in try (decodingChanges ? row.decoded() : row.shallow) as? T }
        if !descriptor.sortBy.isEmpty { selected.sort(using: descriptor.sortBy) }
        if descriptor.fetchLimit > 0, UInt64(selected.count) > descriptor.fetchLimit {
            selected = Array(selected.prefix(Int(clamping: descriptor.fetchLimit)))
        }
        return selected
    }

    private static func lastDeleted(in connection: StoreConnection, store: ModelStore) throws -> DefaultHistoryTransaction? {
        let values = try connection.rows(HistoryStorage.metadata(HistoryStorage.lastDeletedKey))
        guard case .text(let json)? = values.first?.first, let data = json.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let id = (object["id"] as? NSNumber)?.int64Value
        else { return nil }
        return DefaultHistoryTransaction(
            storeIdentifier: store.identifier, bundleIdentifier: object["bundle"] as? String ?? "",
            processIdentifier: object["process"] as? String ?? "", transactionIdentifier: id,
            token: DefaultHistoryToken(id: Int(id), storeIdentifier: store.identifier), author: object["author"] as? String,
            changes: [], timestamp: Date(timeIntervalSinceReferenceDate: (object["timestamp"] as? NSNumber)?.doubleValue ?? 0))
    }

    private static func describe(_ transaction: DefaultHistoryTransaction) -> String {
        var fields = [
            "\"id\":\(transaction.transactionIdentifier)",
            "\"timestamp\":\(transaction.timestamp.timeIntervalSinceReferenceDate)",
            "\"bundle\":" + jsonStringLiteral(transaction.bundleIdentifier),
            "\"process\":" + jsonStringLiteral(transaction.processIdentifier),
        ]
        if let author = transaction.author { fields.append("\"author\":" + jsonStringLiteral(author)) }
        return "{" + fields.joined(separator: ",") + "}"
    }
}

extension DefaultHistoryTransaction {
    /// `transaction` with another position and no changes, before every recorded time.
    init(moving transaction: DefaultHistoryTransaction, to id: Int64) {
        self.init(
            storeIdentifier: transaction.storeIdentifier, bundleIdentifier: transaction.bundleIdentifier,
            processIdentifier: transaction.processIdentifier, transactionIdentifier: id,
            token: DefaultHistoryToken(id: Int(id), storeIdentifier: transaction.storeIdentifier),
            author: transaction.author, changes: [], timestamp: .distantPast)
    }
}

/// One stored transaction: its fields, and its changes document, decoded on demand.
struct StoredHistoryRow {
    /// The transaction without its changes.
    let shallow: DefaultHistoryTransaction
    let json: DatabaseValue
    let store: ModelStore
    /// The transaction with its changes, once decoded.
    private var full: DefaultHistoryTransaction?

    /// One row: id, timestamp, author, bundle, process, changes (JSON).
    init(_ row: [DatabaseValue], store: ModelStore) {
        let id: Int64 = if case .integer(let value) = row[0] { value } else { 0 }
        let timestamp: Double = if case .real(let value) = row[1] { value } else { 0 }
        let author: String? = if case .text(let value) = row[2] { value } else { nil }
        let bundle: String = if case .text(let value) = row[3] { value } else { "" }
        let process: String = if case .text(let value) = row[4] { value } else { "" }
        shallow = DefaultHistoryTransaction(
            storeIdentifier: store.identifier, bundleIdentifier: bundle, processIdentifier: process, transactionIdentifier: id,
            token: DefaultHistoryToken(id: Int(id), storeIdentifier: store.identifier), author: author, changes: [],
            timestamp: Date(timeIntervalSinceReferenceDate: timestamp))
        json = row[5]
        self.store = store
    }

    func with(_ decoded: DefaultHistoryTransaction) -> StoredHistoryRow {
        var copy = self
        copy.full = decoded
        return copy
    }

    /// The transaction with its changes; a damaged document is an error naming it.
    func decoded() throws -> DefaultHistoryTransaction {
        if let full { return full }
        let id = shallow.transactionIdentifier
        guard case .text(let json) = json else {
            throw ModelError(.valueDecodingFailed, entityName: "_CairnHistoryTransaction", value: "\(id)",
                             message: "History transaction \(id) in store '\(store.identifier)' has no changes document")
        }
        let changes = try HistoryReader(store: store, transaction: id).changes(json)
        return DefaultHistoryTransaction(
            storeIdentifier: shallow.storeIdentifier, bundleIdentifier: shallow.bundleIdentifier,
            processIdentifier: shallow.processIdentifier, transactionIdentifier: id, token: shallow.token,
            author: shallow.author, changes: changes, timestamp: shallow.timestamp)
    }
}

/// Whether a history predicate reads a transaction's `changes`, found by walking its
/// expression: any key path from the transaction other than its plain fields counts, and so
/// does an expression too large to walk (the answer must never be a wrong "no").
enum HistoryPredicateReads {
    /// (Computed: an array of key paths is not `Sendable`, so it cannot be a static constant.)
    private static var plainFields: [AnyKeyPath] {
        [
            \DefaultHistoryTransaction.author, \DefaultHistoryTransaction.token, \DefaultHistoryTransaction.timestamp,
            \DefaultHistoryTransaction.storeIdentifier, \DefaultHistoryTransaction.transactionIdentifier,
            \DefaultHistoryTransaction.bundleIdentifier, \DefaultHistoryTransaction.processIdentifier,
            \DefaultHistoryTransaction.id,
        ]
    }

    static func changes<T>(_ predicate: Predicate<T>) -> Bool {
        var budget = 10_000
        return reads(predicate.expression, budget: &budget)
    }

    private static func reads(_ value: Any, budget: inout Int) -> Bool {
        budget -= 1
        guard budget > 0 else { return true }
        if let keyPath = value as? AnyKeyPath {
            return type(of: keyPath).rootType == DefaultHistoryTransaction.self && !plainFields.contains(keyPath)
        }
        for child in Mirror(reflecting: value).children where reads(child.value, budget: &budget) { return true }
        return false
    }
}
