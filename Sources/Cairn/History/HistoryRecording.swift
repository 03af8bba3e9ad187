import Foundation

// How a store keeps its history: one row per transaction in "_CairnHistoryTransaction", its
// changes as one JSON document, written by the save's own SQL transaction (so a failed save
// leaves no history either). One statement per store and save, whatever the number of rows:
// a row per change would have doubled the statements of a large insert.
//
//   [{"e":"Trip","k":"d","keys":[4],"tomb":[{"name":{"t":"Paris"}}]},
//    {"e":"Trip","k":"i","keys":[9,10]},
//    {"e":"Trip","k":"u","keys":[3],"props":[["name","items"]]}]
//
// Consecutive changes of one kind to one entity share an entry; "props" (updates) and "tomb"
// (deletes with preserved attributes) follow "keys" one for one.

enum HistoryStorage {
    static let createTransactions = """
        CREATE TABLE IF NOT EXISTS "_CairnHistoryTransaction" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
        "timestamp" REAL NOT NULL, "author" TEXT, "bundleIdentifier" TEXT NOT NULL, \
        "processIdentifier" TEXT NOT NULL, "changes" TEXT NOT NULL)
        """
    static let insertTransaction = """
        INSERT INTO "_CairnHistoryTransaction" ("timestamp", "author", "bundleIdentifier", "processIdentifier", "changes") \
        VALUES (?, ?, ?, ?, ?)
        """
    /// The `_CairnMetadata` key of the newest transaction `deleteHistory` removed (JSON), kept
    /// so a fetch that asks for removed transactions can say so (`historyTokenExpired`).
    static let lastDeletedKey = "historyLastDeleted"

    static let bundleIdentifier = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    static let processIdentifier = String(ProcessInfo.processInfo.processIdentifier)
}

/// The changes of one save to one store, in the order they were written, as the JSON document
/// the transaction row keeps. Runs of consecutive keys are written as `[first, last]` (a bulk
/// insert's rowids are consecutive: 100,000 inserted rows are one pair, not 600 KB of keys).
struct HistoryRecord {
    enum Kind: String { case insert = "i", update = "u", delete = "d" }

    private var json = "["
    private var isEmpty = true
    private var open: (kind: Kind, entity: Schema.Entity)?
    private var keys = ""
    private var run: (first: Int64, last: Int64)?
    private var details: [String] = []

    var hasChanges: Bool { !isEmpty || open != nil }

    mutating func add(_ kind: Kind, entity: Schema.Entity, key: Int64, properties: [String]? = nil,
                      tombstone: [(name: String, value: DatabaseValue)]? = nil) {
        if open?.kind != kind || open?.entity !== entity {
            close()
            open = (kind, entity)
        }
        if let current = run, key == current.last &+ 1, current.last != .max {
            run = (current.first, key)
        } else {
            flushRun()
            run = (key, key)
        }
        if let properties { details.append("[" + properties.map(jsonStringLiteral).joined(separator: ",") + "]") }
        if let tombstone {
            details.append("{" + tombstone.map { jsonStringLiteral($0.name) + ":" + Self.encode($0.value) }.joined(separator: ",") + "}")
        }
    }

    /// The finished document.
    mutating func document() -> String {
        close()
        return json + "]"
    }

    private mutating func flushRun() {
        guard let current = run else { return }
        if !keys.isEmpty { keys += "," }
        keys += current.first == current.last ? String(current.first) : "[\(current.first),\(current.last)]"
        run = nil
    }

    private mutating func close() {
        guard let open else { return }
        flushRun()
        if !isEmpty { json += "," }
        isEmpty = false
        // Appended piece by piece: `a + b + …` made a new string per `+` (about 600
        // instructions each, callgrind W13, a one-row save).
        json += "{\"e\":"
        json += jsonStringLiteral(open.entity.name)
        json += ",\"k\":\""
        json += open.kind.rawValue
        json += "\",\"keys\":["
        json += keys
        json += "]"
        if !details.isEmpty {
            json += open.kind == .update ? ",\"props\":[" : ",\"tomb\":["
            json += details.joined(separator: ",")
            json += "]"
        }
        json += "}"
        self.open = nil
        keys = ""
        details = []
    }

    /// The keys of an entry: numbers, and `[first, last]` runs, expanded.
    static func keys(_ json: [Any]) -> [Int64] {
        var keys: [Int64] = []
        for element in json {
            if let key = (element as? NSNumber)?.int64Value {
                keys.append(key)
            } else if let pair = element as? [NSNumber], pair.count == 2 {
                let (first, last) = (pair[0].int64Value, pair[1].int64Value)
                if first <= last { keys.append(contentsOf: first...last) }
            }
        }
        return keys
    }

    /// A stored value as JSON: `{"i":1}`, `{"r":1.5}`, `{"t":"…"}`, `{"b":"base64"}` or `null`.
    static func encode(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): "{\"i\":\(integer)}"
        // Doubles as their exact bit pattern: JSON numbers lose NaN and infinities.
        case .real(let real): "{\"r\":\(real.bitPattern)}"
        case .text(let text): "{\"t\":" + jsonStringLiteral(text) + "}"
        case .blob(let data): "{\"b\":\"" + data.base64EncodedString() + "\"}"
        }
    }

    static func decode(_ json: Any) -> DatabaseValue {
        guard let object = json as? [String: Any] else { return .null }
        if let integer = (object["i"] as? NSNumber)?.int64Value { return .integer(integer) }
        if let bits = (object["r"] as? NSNumber)?.uint64Value { return .real(Double(bitPattern: bits)) }
        if let text = object["t"] as? String { return .text(text) }
        if let base64 = object["b"] as? String, let data = Data(base64Encoded: base64) { return .blob(data) }
        return .null
    }
}

/// History for rows written outside a context, so that a program following the store's history
/// (`fetchHistory`) sees them as it sees a save's: the `cairn` tool's import.
package enum ExternalHistory {
    /// Records the insert of the rows with `keys` into `entityName`'s table as one history
    /// transaction, on `database`, inside the caller's SQL transaction.
    package static func recordInserts(entityName: String, keys: [Int64], author: String?, on database: Database) throws {
        guard !keys.isEmpty else { return }
        var runs: [String] = []
        var run = (first: keys[0], last: keys[0])
        for key in keys.dropFirst() {
            if key == run.last &+ 1, run.last != .max {
                run.last = key
                continue
            }
            runs.append(run.first == run.last ? String(run.first) : "[\(run.first),\(run.last)]")
            run = (key, key)
        }
        runs.append(run.first == run.last ? String(run.first) : "[\(run.first),\(run.last)]")
        let document = "[{\"e\":" + jsonStringLiteral(entityName) + ",\"k\":\"i\",\"keys\":[" + runs.joined(separator: ",") + "]}]"
        try database.execute(
            sql: HistoryStorage.insertTransaction,
            arguments: StatementArguments([
                .real(Date().timeIntervalSinceReferenceDate), author.map { .text($0) } ?? .null,
                .text(HistoryStorage.bundleIdentifier), .text(HistoryStorage.processIdentifier), .text(document),
            ]))
    }
}

extension StoreWriter {
    /// Records the save's changes to this store as one history transaction (inside the save's
    /// SQL transaction): the deletes and inserts as they were written, then the updates.
    mutating func recordHistory(updated: [ModelStorage], author: String?) throws {
        var record = HistoryRecord()
        for row in deletedRows { record.add(.delete, entity: row.entity, key: row.key, tombstone: row.tombstone) }
        for row in insertedRows { record.add(.insert, entity: row.entity, key: row.key) }
        try forEach(updated) { _, storage, layout in
            guard let key = storage.identifier.primaryKey else { return }
            let names = storage.changed.compactMap { slot -> String? in
                guard slot < layout.entity.properties.count else { return nil }
                let property = layout.entity.properties[slot]
                return property.isTransient ? nil : property.name
            }
            guard !names.isEmpty else { return }
            record.add(.update, entity: layout.entity, key: key, properties: names)
        }
        guard record.hasChanges else { return }
        try connection.database.execute(
            sql: HistoryStorage.insertTransaction,
            arguments: StatementArguments([
                .real(Date().timeIntervalSinceReferenceDate), author.map { .text($0) } ?? .null,
                .text(HistoryStorage.bundleIdentifier), .text(HistoryStorage.processIdentifier), .text(record.document()),
            ]))
    }

    /// The stored values of a row's `.preserveValueOnDeletion` attributes, read before the
    /// row is deleted (what the store had, not unsaved edits the delete discards).
    func tombstone(key: Int64, layout: TableLayout) throws -> [(name: String, value: DatabaseValue)]? {
        let preserved = layout.columns.filter {
            if case .attribute(let attribute) = $0.kind { attribute.options.contains(.preserveValueOnDeletion) } else { false }
        }
        guard !preserved.isEmpty else { return nil }
        let select = SQLSelect(preserved.map { SQLSelectColumn(.column($0.name)) }, from: .table(layout.tableName))
            .where(.column(layout.primaryKey).equals(.value(.integer(key))))
        guard let row = try connection.rows(select).first else { return nil }
        return zip(preserved, row).map { ($0.propertyName, $1) }
    }
}
