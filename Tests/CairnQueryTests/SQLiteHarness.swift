import CSQLite
import CairnQuery
import Foundation
import Testing

/// A minimal in-memory SQLite connection so the rendered SQL is checked by SQLite itself
/// (syntax and meaning), independent of the engine being built in parallel.
final class SQLiteHarness {
    private var db: OpaquePointer?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(schema: String = SQLiteHarness.schema) throws {
        guard sqlite3_open(":memory:", &db) == SQLITE_OK else { throw Failure(description: "open failed") }
        try execute(schema)
    }

    deinit { sqlite3_close(db) }

    static let schema = """
        CREATE TABLE lists (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE reminders (id INTEGER PRIMARY KEY, title TEXT NOT NULL, isCompleted INTEGER NOT NULL DEFAULT 0,
          priority INTEGER, listID INTEGER REFERENCES lists(id), due TEXT);
        CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, count INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE t (id INTEGER PRIMARY KEY, a, b, c, d, title TEXT);
        CREATE TABLE u (a, b, c, d);
        """

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw Failure(description: "\(text) in \(sql)")
        }
    }

    /// Runs rendered SQL with its arguments bound and returns every row.
    @discardableResult
    func rows(_ rendered: RenderedSQL) throws -> [[DatabaseValue]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, rendered.sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: "\(String(cString: sqlite3_errmsg(db))) in \(rendered.sql.prefix(300))")
        }
        defer { sqlite3_finalize(statement) }
        guard Int(sqlite3_bind_parameter_count(statement)) == rendered.arguments.count else {
            throw Failure(description: "placeholder count differs from \(rendered.arguments.count) arguments in \(rendered.sql)")
        }
        for (offset, value) in rendered.arguments.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let v): sqlite3_bind_int64(statement, index, v)
            case .real(let v): sqlite3_bind_double(statement, index, v)
            case .text(let v): sqlite3_bind_text(statement, index, v, -1, CAIRN_SQLITE_TRANSIENT)
            case .blob(let v):
                _ = v.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32(v.count), CAIRN_SQLITE_TRANSIENT) }
            }
        }
        var result: [[DatabaseValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw Failure(description: "\(String(cString: sqlite3_errmsg(db))) in \(rendered.sql)")
            }
            result.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                case SQLITE_TEXT: .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
                case SQLITE_BLOB:
                    // An empty blob has no bytes to point to.
                    .blob(sqlite3_column_blob(statement, column).map {
                        Data(bytes: $0, count: Int(sqlite3_column_bytes(statement, column)))
                    } ?? Data())
                default: .null
                }
            })
        }
        return result
    }

    func rows(_ renderable: some SQLRenderable) throws -> [[DatabaseValue]] {
        try rows(renderable.render())
    }

    /// The single value of `SELECT expression`.
    func value(of expression: SQLExpression) throws -> DatabaseValue {
        try rows(SQLSelect([expression])).first?.first ?? .null
    }
}
