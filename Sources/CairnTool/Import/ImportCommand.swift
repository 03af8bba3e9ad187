import Cairn
import CairnSQLite
import Foundation

/// `cairn import STORE ENTITY FILE`: rows from CSV or JSON into a Cairn store's entity or a
/// SQLite table, typed by its columns, one transaction per batch.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import", positionals: ["STORE", "ENTITY", "FILE"],
        summary: "add rows from a .csv or .json file to an entity of a Cairn store or a table of an SQLite file",
        options: [.init(name: "batch", value: "N", help: "rows per transaction (1000 by default)")],
        details: """
            example: cairn import App.store Workout workouts.csv

            Field names are the entity's keys. Values are converted to each key's type (dates from
            ISO 8601); a value that does not convert, or that the table refuses, stops the import
            with its line, and nothing of its batch is written (earlier batches stay).
            Core Data and SwiftData stores are not written: their apps keep bookkeeping
            (Z_OPT, Z_PRIMARYKEY.Z_MAX, history) that only Core Data updates.
            """)

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let path = arguments.positionals[0], file = arguments.positionals[2]
        let batchSize = try arguments.integer("batch") ?? 1000
        guard batchSize > 0 else { throw ToolError.usage("--batch needs at least 1 row") }
        // Read-only first, so an Apple store is refused without being opened for writing.
        let kind = try StoreFile(path: path).kind
        guard kind != .apple else {
            throw ToolError.failure(
                "\(path) is a Core Data / SwiftData store; cairn does not write those: Core Data keeps Z_OPT, "
                    + "Z_PRIMARYKEY.Z_MAX and its history in step with every insert. Import through the app, or into a Cairn store.")
        }
        let input = try ImportRecords.read(file)
        let store = try StoreFile(path: path, writable: true)
        let entity = try store.model.entity(named: arguments.positionals[1])
        let plan = try ImportPlan(entity: entity, fieldNames: input.fieldNames, file: file, datesInReals: kind == .cairn)
        let statement = try store.db.makeStatement(sql: plan.insertSQL())
        let progress = ImportProgress(total: input.records.count, console: console)
        var written = 0
        for start in stride(from: 0, to: input.records.count, by: batchSize) {
            let batch = input.records[start..<min(start + batchSize, input.records.count)]
            try store.db.execute(sql: "BEGIN IMMEDIATE")
            do {
                var keys: [Int64] = []
                keys.reserveCapacity(batch.count)
                for record in batch {
                    let values = try plan.values(of: record, file: file)
                    do {
                        try statement.execute(arguments: StatementArguments(values))
                    } catch let error as DatabaseError {
                        throw ToolError.failure("\(file) line \(record.line): \(entity.table) refused the row: \(error.message)")
                    }
                    keys.append(store.db.lastInsertedRowID)
                }
                // A Cairn store's history lists the batch as a save's inserts, so that programs
                // following it (fetchHistory) see the imported rows.
                if kind == .cairn, store.tables.contains("_CairnHistoryTransaction") {
                    try ExternalHistory.recordInserts(entityName: entity.name, keys: keys, author: "cairn import", on: store.db)
                }
                try store.db.execute(sql: "COMMIT")
            } catch {
                try? store.db.execute(sql: "ROLLBACK")
                progress.end()
                let kept = written == 0 ? "nothing was written" : "the \(written) rows of earlier batches were written"
                let message = (error as? ToolError)?.message ?? "\(error)"
                let records = batch.count == 1 ? "record \(start + 1)" : "records \(start + 1)–\(start + batch.count)"
                throw ToolError.failure("\(message)\n  its batch (\(records)) was rolled back; \(kept)")
            }
            written += batch.count
            progress.report(written)
        }
        progress.end()
        console.out("imported \(written) \(written == 1 ? "row" : "rows") into \(entity.name)\n")
    }
}

/// Which column each field goes to and how its values convert.
struct ImportPlan {
    let entity: StoreEntity
    /// Field name, column, type, for each field of the file, in the file's order.
    let targets: [(field: String, column: String, type: ValueType)]

    /// Whether an ISO 8601 date may fill a REAL column, as seconds since 2001: a Cairn store
    /// keeps its dates so, without saying which REAL columns hold them.
    let datesInReals: Bool

    init(entity: StoreEntity, fieldNames: [String], file: String, datesInReals: Bool = false) throws(ToolError) {
        self.entity = entity
        self.datesInReals = datesInReals
        var targets: [(field: String, column: String, type: ValueType)] = []
        for name in fieldNames {
            if name == entity.primaryKey {
                targets.append((name, name, .integer))
            } else if let attribute = entity.attribute(named: name) {
                targets.append((name, attribute.column, attribute.type))
            } else if let relationship = entity.relationship(named: name), case .foreignKey(let column) = relationship.storage {
                targets.append((name, column, .integer))
            } else {
                throw ToolError.failure(
                    "\(file): field '\(name)' is not a key of \(entity.name); its keys: "
                        + ([entity.primaryKey] + entity.keys).joined(separator: ", "))
            }
        }
        self.targets = targets
    }

    func insertSQL() throws -> String {
        let placeholders = targets.map { _ in SQLExpression.value(.null) }
        return try SQLInsert(into: entity.table, columns: targets.map(\.column), values: [placeholders]).render().sql
    }

    func values(of record: ImportRecords.Record, file: String) throws(ToolError) -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        for target in targets {
            guard let field = record.fields[target.field], let field else {
                values.append(.null)
                continue
            }
            var converted = Self.convert(field, to: target.type)
            if converted == nil, datesInReals, target.type == .double, case .text(let text) = field {
                converted = TypedLiterals.date(text).map { .real($0.timeIntervalSinceReferenceDate) }
            }
            guard let value = converted else {
                let expected = Self.describe(target.type) + (datesInReals && target.type == .double ? " or an ISO 8601 date" : "")
                throw ToolError.failure("\(file) line \(record.line): \(target.field) = \(Self.show(field)) is not \(expected)")
            }
            values.append(value)
        }
        return values
    }

    static func convert(_ field: ImportRecords.Field, to type: ValueType) -> DatabaseValue? {
        switch (field, type) {
        case (.bool(let bool), .bool), (.bool(let bool), .integer): return .integer(bool ? 1 : 0)
        case (.text(let text), .bool):
            switch text.lowercased() {
            case "true", "yes", "1": return .integer(1)
            case "false", "no", "0": return .integer(0)
            default: return nil
            }
        case (.number(let number), .bool): return number == 0 || number == 1 ? .integer(number.int64Value) : nil
        case (.text(let text), .integer):
            // SQLite keeps Bools as 0 and 1 in INTEGER columns (Cairn's and Core Data's do).
            switch text.lowercased() {
            case "true": return .integer(1)
            case "false": return .integer(0)
            default: return Int64(text.trimmingCharacters(in: .whitespaces)).map(DatabaseValue.integer)
            }
        case (.number(let number), .integer): return Double(exactly: number.int64Value) == number.doubleValue ? .integer(number.int64Value) : nil
        case (.text(let text), .double), (.text(let text), .decimal):
            return Double(text.trimmingCharacters(in: .whitespaces)).map(DatabaseValue.real)
        case (.number(let number), .double), (.number(let number), .decimal): return .real(number.doubleValue)
        case (.text(let text), .date): return TypedLiterals.date(text).map { .real($0.timeIntervalSinceReferenceDate) }
        case (.text(let text), .string), (.text(let text), .uri): return .text(text)
        // Imports go to Cairn stores and plain tables, which keep a UUID as its lowercase text.
        case (.text(let text), .uuid): return UUID(uuidString: text).map(\.databaseValue)
        case (.number(let number), .string): return .text(number.stringValue)
        case (.text(let text), .unknown): return .text(text)
        case (.number(let number), .unknown):
            return Double(exactly: number.int64Value) == number.doubleValue ? .integer(number.int64Value) : .real(number.doubleValue)
        case (.bool(let bool), .unknown): return .integer(bool ? 1 : 0)
        default: return nil
        }
    }

    static func show(_ field: ImportRecords.Field) -> String {
        switch field {
        case .text(let text): Cell.jsonString(text)
        case .number(let number): number.stringValue
        case .bool(let bool): bool ? "true" : "false"
        case .other(let text): text
        }
    }

    static func describe(_ type: ValueType) -> String {
        switch type {
        case .integer: "a whole number"
        case .double, .decimal: "a number"
        case .bool: "a Bool (true/false, yes/no, 1/0)"
        case .date: "an ISO 8601 date (2024-03-01 or 2024-03-01T09:30:00Z)"
        case .string, .uri: "text"
        case .binary, .uuid, .transformable: "importable: \(type.rawValue) values cannot come from CSV or JSON"
        case .unknown: "a string, number or Bool"
        }
    }
}
