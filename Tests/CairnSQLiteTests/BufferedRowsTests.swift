import CairnSQLite
import Foundation
import Testing

/// `BufferedRows` hands out `Row`s over values read elsewhere (a database server's results).
/// Every accessor must answer what it answers for an SQLite statement holding the same values:
/// these tests read one query both ways and compare.
@Suite struct BufferedRowsTests {
    /// Columns: INTEGER, TEXT, NULL, REAL, BLOB, a REAL that is a date, an INTEGER that is a Bool,
    /// TEXT that is a UUID, an INTEGER that does not fit in Int8.
    static let sql = """
        SELECT 7 AS n, 'seven' AS word, NULL AS empty, 2.5 AS half, x'00ff' AS bytes,
               86400.0 AS day, 1 AS flag, '6BA7B810-9DAD-11D1-80B4-00C04FD430C8' AS uuid, 300 AS big
        """

    /// The query's rows read by SQLite, then copied into `BufferedRows`.
    func bothWays() throws -> (sqlite: Database, buffered: BufferedRows) {
        let db = try Database.inMemory()
        var buffered: BufferedRows?
        _ = try db.fetchAll(sql: Self.sql) { (row: Row) throws -> Void in
            var rows = BufferedRows(columnNames: row.columnNames, sql: Self.sql)
            rows.append((0..<row.count).map { row.databaseValue(at: $0) })
            buffered = rows
        }
        return (db, try #require(buffered))
    }

    /// What a row answers, as text, so the two sources compare in one `#expect`.
    func answers(_ row: Row) -> [String] {
        func attempt<T>(_ body: () throws -> T) -> String {
            do { return "\(try body())" } catch let error as RowDecodingError { return "error: \(error.reason)" } catch { return "\(error)" }
        }
        var answers: [String] = [row.columnNames.joined(separator: ","), "\(row.count)"]
        for index in -1...row.count {
            answers += [
                attempt { try row.decode(Int64.self, at: index) },
                attempt { try row.decode(Int8.self, at: index) },
                attempt { try row.decode(String?.self, at: index) },
                attempt { try row.decode(Double.self, at: index) },
                attempt { try row.decode(Data?.self, at: index) },
                attempt { try row.decode(Date?.self, at: index) },
                attempt { try row.decode(Bool?.self, at: index) },
                attempt { try row.decode(UUID?.self, at: index) },
                "\(row[index] as Int?, default: "nil")",
                "\(row.integer(at: index), default: "nil")",
                "\(row.isNull(at: index))",
                "\(row.nullOrValue(Double.self, at: index))",
                "\(row.databaseValue(at: index))",
            ]
        }
        answers.append(attempt { try row.decode(String.self, column: "WORD") })
        answers.append(attempt { try row.decode(String.self, column: "missing") })
        return answers
    }

    @Test func everyAccessorAnswersAsSQLiteDoes() throws {
        let (db, buffered) = try bothWays()
        let fromSQLite = try db.fetchAll(sql: Self.sql) { answers($0) }
        let fromBuffer = buffered.map { answers($0) }
        #expect(fromSQLite.count == 1)
        #expect(fromBuffer == fromSQLite)
    }

    /// The query's row as borrowed values (text and bytes left in buffers that `body` may
    /// not outlive), read through `BufferedRows.forEach(columnNames:sql:rowCount:readBorrowedRow:_:)`.
    func withBorrowedRow<T>(_ body: (Row) throws -> T) throws -> [T] {
        let (_, buffered) = try bothWays()
        let values = (0..<buffered.columnNames.count).compactMap { buffered.value(row: 0, column: $0) }
        let bytes: [[UInt8]] = values.map { value in
            switch value {
            case .text(let text): Array(text.utf8)
            case .blob(let data): Array(data)
            default: []
            }
        }
        var results: [T] = []
        try bytes.withUnsafeBufferPointers { views in
            try BufferedRows.forEach(columnNames: buffered.columnNames, sql: Self.sql, rowCount: 1, readBorrowedRow: { _, row in
                for (value, view) in zip(values, views) {
                    switch value {
                    case .null: row.append(.null)
                    case .integer(let integer): row.append(.integer(integer))
                    case .real(let real): row.append(.real(real))
                    case .text: row.append(.text(view))
                    case .blob: row.append(.blob(view))
                    }
                }
            }) { results.append(try body($0)) }
        }
        return results
    }

    @Test func borrowedValuesAnswerAsSQLiteDoes() throws {
        let (db, _) = try bothWays()
        let fromSQLite = try db.fetchAll(sql: Self.sql) { answers($0) }
        #expect(try withBorrowedRow { answers($0) } == fromSQLite)
        let error = try withBorrowedRow { row -> String in
            do { _ = try row.decode(Int.self, column: "word"); return "" } catch { return "\(error)" }
        }
        #expect(error.first?.contains("seven") == true)
        var kept: [Row] = []
        _ = try withBorrowedRow { kept.append($0) }
        #expect(try #require(kept.first).isNull(at: 0))
    }

    @Test func aValueThatDoesNotConvertNamesTheColumnAndTheStatement() throws {
        let (_, buffered) = try bothWays()
        let error = try #require(buffered.map { row in
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, at: 2) }
            do { _ = try row.decode(Int.self, column: "word"); return nil as RowDecodingError? } catch let error as RowDecodingError { return error }
        }.first ?? nil)
        #expect(error.columnName == "word")
        #expect(error.sql == Self.sql)
        #expect("\(error)".contains("'seven'") || "\(error)".contains("seven"))
    }

    @Test func rowsFromFlatValuesReadRowAfterRowAndDropAPartialRow() throws {
        let rows = BufferedRows(
            columnNames: ["id", "title"], sql: "SELECT id, title",
            values: [.integer(1), .text("Run"), .integer(2), .null, .integer(3)])
        #expect(rows.count == 2)
        let read = try rows.map { (try $0.decode(Int64.self, at: 0), try $0.decode(String?.self, column: "title")) }
        #expect(read.map(\.0) == [1, 2])
        #expect(read.map(\.1) == ["Run", nil])
        #expect(rows.value(row: 2, column: 0) == nil)
        #expect(BufferedRows(columnNames: [], sql: "SELECT", values: [.integer(1)]).count == 0)
    }

    @Test func aRowKeptPastItsTurnReadsNothing() throws {
        var rows = BufferedRows(columnNames: ["n"], sql: "SELECT n")
        rows.append([.integer(1)])
        rows.append([.integer(2)])
        var kept: [Row] = []
        let seen = rows.map { row -> Int64? in kept.append(row); return row.integer(at: 0) }
        #expect(seen == [1, 2])
        let row = try #require(kept.first)
        #expect(row.isNull(at: 0))
        #expect(throws: RowDecodingError.self) { try row.decode(Int64.self, at: 0) }
    }

    @Test func shortRowsReadNullAndLongRowsAreCut() {
        var rows = BufferedRows(columnNames: ["a", "b"], sql: "SELECT a, b")
        rows.append([.integer(1)])
        rows.append([.integer(2), .text("x"), .real(9)])
        #expect(rows.count == 2)
        #expect(rows.value(row: 0, column: 1) == .null)
        #expect(rows.value(row: 1, column: 1) == .text("x"))
        #expect(rows.value(row: 1, column: 2) == nil)
        #expect(rows.value(row: 2, column: 0) == nil)
    }
}

extension Array where Element == [UInt8] {
    /// Calls `body` with a view of each array's bytes, all valid for the whole call.
    func withUnsafeBufferPointers<R>(_ body: ([UnsafeRawBufferPointer]) throws -> R) throws -> R {
        func nest(_ index: Int, _ views: [UnsafeRawBufferPointer]) throws -> R {
            guard index < count else { return try body(views) }
            return try self[index].withUnsafeBytes { try nest(index + 1, views + [$0]) }
        }
        return try nest(0, [])
    }
}

