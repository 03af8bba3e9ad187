import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL value round trips", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresValueTests {
    @Test("Every value kind, NULL and the extremes come back as bound")
    func roundTrip() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: """
                CREATE TABLE \(schema).value (
                    n integer, i8 bigint, i4 integer, i2 smallint, f8 double precision, b boolean,
                    t text, v varchar(50), by bytea)
                """)
            let rows: [StatementArguments] = [
                [1, Int64.min, Int32.min, Int16.min, -Double.greatestFiniteMagnitude, false, "", "", Data()],
                [2, Int64.max, Int32.max, Int16.max, Double.infinity, true, "Café ☕️ 日本 x", "Ωμέγα", Data([0, 255, 10])],
                [3, 0, 0, 0, -Double.infinity, 1, "'; DROP TABLE x; --", "a\"b", Data(repeating: 7, count: 5000)],
                [4, nil, nil, nil, nil, nil, nil, nil, nil],
                [5, 42, 42, 42, 0.1, 0, "🧗‍♀️", "e\u{301}", Data([0])],
            ]
            for arguments in rows {
                try db.execute(sql: "INSERT INTO \(schema).value VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                               arguments: arguments)
            }
            let fetched = try db.fetchAll(sql: "SELECT i8, i4, i2, f8, b, t, v, by FROM \(schema).value ORDER BY n")
            #expect(fetched.columnNames == ["i8", "i4", "i2", "f8", "b", "t", "v", "by"])
            let expected: [[DatabaseValue]] = [
                [.integer(.min), .integer(Int64(Int32.min)), .integer(Int64(Int16.min)),
                 .real(-.greatestFiniteMagnitude), .integer(0), .text(""), .text(""), .blob(Data())],
                [.integer(.max), .integer(Int64(Int32.max)), .integer(Int64(Int16.max)), .real(.infinity),
                 .integer(1), .text("Café ☕️ 日本 x"), .text("Ωμέγα"), .blob(Data([0, 255, 10]))],
                [.integer(0), .integer(0), .integer(0), .real(-.infinity), .integer(1), .text("'; DROP TABLE x; --"),
                 .text("a\"b"), .blob(Data(repeating: 7, count: 5000))],
                Array(repeating: .null, count: 8),
                [.integer(42), .integer(42), .integer(42), .real(0.1), .integer(0), .text("🧗‍♀️"),
                 .text("e\u{301}"), .blob(Data([0]))],
            ]
            #expect(fetched.rows == expected)
            // Rows read as Row take each value from libpq's bytes where they lie, and answer the
            // same: an empty text or bytea is no NULL, a NULL is no empty value.
            let select = "SELECT i8, i4, i2, f8, b, t, v, by FROM \(schema).value ORDER BY n"
            let read = try db.fetchAll(sql: select) { row in (0..<row.count).map { row.databaseValue(at: $0) } }
            #expect(read == expected)
            func text(_ value: (some Any)?) -> String { value.map { "\($0)" } ?? "nil" }
            let decoded = try db.fetchAll(sql: select) { row -> [String] in
                var answers: [String] = []
                answers.append(text(try row.decode(Int64?.self, at: 0)))
                answers.append(text(try row.decode(Int32?.self, at: 1)))
                answers.append(text(try row.decode(Double?.self, at: 3)))
                answers.append(text(try row.decode(Bool?.self, at: 4)))
                answers.append(text(try row.decode(String?.self, at: 5)))
                answers.append(text(try row.decode(Data?.self, at: 7)?.count))
                answers.append("\(row.isNull(at: 5))")
                answers.append(text(row.integer(at: 0)))
                answers.append("\(row.nullOrValue(String.self, at: 6))")
                return answers
            }
            #expect(decoded[0] == ["\(Int64.min)", "\(Int32.min)", "\(-Double.greatestFiniteMagnitude)", "false", "", "0",
                                   "false", "\(Int64.min)", #"(isNull: false, value: Optional(""))"#])
            #expect(decoded[3] == ["nil", "nil", "nil", "nil", "nil", "nil", "true", "nil", "(isNull: true, value: nil)"])
            #expect(decoded[4][4] == "🧗‍♀️")
            #expect(throws: RowDecodingError.self) { try db.fetchAll(sql: select) { try $0.decode(Int64.self, at: 5) } }
            // Text keeps its exact scalars: no normalization on the way in or out.
            if case .text(let text) = fetched.rows[4][6] { #expect(Array(text.unicodeScalars.map(\.value)) == [0x65, 0x301]) }
        }
    }

    @Test("NaN and negative zero survive a float8 column")
    func specialDoubles() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).d (n integer, x double precision)")
            try db.executeBatch(sql: "INSERT INTO \(schema).d VALUES ($1, $2)",
                                argumentRows: [[1, Double.nan], [2, -0.0], [3, Double.leastNonzeroMagnitude]])
            let rows = try db.fetchAll(sql: "SELECT x FROM \(schema).d ORDER BY n").rows
            guard case .real(let nan) = rows[0][0], case .real(let zero) = rows[1][0], case .real(let tiny) = rows[2][0]
            else { Issue.record("not reals: \(rows)"); return }
            #expect(nan.isNaN)
            #expect(zero == 0 && zero.sign == .minus)
            #expect(tiny == .leastNonzeroMagnitude)
        }
    }

    @Test("Columns of types read as text: numeric becomes a number, the others their text form")
    func textResults() throws {
        let db = try TestServer.connect()
        let rows = try db.fetchAll(sql: """
            SELECT 12.5::numeric AS amount, 'NaN'::numeric AS nan, '00000000-0000-0000-0000-00000000002a'::uuid AS id,
                   true AS yes, '\\x00ff'::bytea AS bytes, 7::int8 AS seven, $1::date AS day
            """, arguments: ["2024-02-29"])
        #expect(rows.columnNames == ["amount", "nan", "id", "yes", "bytes", "seven", "day"])
        #expect(rows.rows.count == 1)
        let row = rows.rows[0]
        #expect(row[0] == .real(12.5))
        if case .real(let nan) = row[1] { #expect(nan.isNaN) } else { Issue.record("numeric NaN: \(row[1])") }
        #expect(Array(row[2...]) == [.text("00000000-0000-0000-0000-00000000002a"), .integer(1),
                                      .blob(Data([0, 255])), .integer(7), .text("2024-02-29")])
    }

    @Test("A parameter is encoded for the type the server infers: an integer reaches a boolean, text a uuid")
    func inferredParameterTypes() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).p (done boolean, id uuid, amount numeric, small real)")
            try db.execute(sql: "INSERT INTO \(schema).p VALUES ($1, $2, $3, $4)",
                           arguments: [1, "00000000-0000-0000-0000-00000000002a", 2.5, 1.5])
            let rows = try db.fetchAll(sql: "SELECT done, id::text, amount, small FROM \(schema).p WHERE done = $1",
                                       arguments: [true])
            #expect(rows.rows == [[.integer(1), .text("00000000-0000-0000-0000-00000000002a"), .real(2.5), .real(1.5)]])
        }
    }
}

@Suite("PostgreSQL dates", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresDateTests {
    /// A server (or role, or URL) whose default time zone is not UTC must not shift the dates
    /// Cairn binds as zoneless text, nor the ones it reads back.
    @Test("A Date bound into timestamp and timestamptz columns is the same instant, in any server time zone")
    func datesAreUTCWhateverTheServersZone() throws {
        let url = try #require(TestServer.url)
        let tokyo = url + (url.contains("?") ? "&" : "?") + "options=-c%20TimeZone%3DAsia/Tokyo%20-c%20DateStyle%3DSQL,DMY"
        let db = try PostgresConnection(url: tokyo)
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try db.execute(sql: "CREATE SCHEMA \(schema)")
        defer { _ = try? db.execute(sql: "DROP SCHEMA \(schema) CASCADE") }
        try db.execute(sql: "CREATE TABLE \(schema).d (plain timestamp, zoned timestamptz, text text)")
        let date = Date(timeIntervalSinceReferenceDate: 800_098_200.25)  // 2026-05-10 09:30:00.250 UTC
        try db.execute(sql: "INSERT INTO \(schema).d VALUES ($1, $2, $3)", arguments: [date, date, date])
        let epochs = try db.fetchAll(sql: """
            SELECT extract(epoch FROM plain)::float8, extract(epoch FROM zoned)::float8 FROM \(schema).d
            """)
        #expect(epochs.rows == [[.real(date.timeIntervalSince1970), .real(date.timeIntervalSince1970)]])
        let read = try db.fetchAll(sql: "SELECT plain, zoned, text FROM \(schema).d")
        let dates = read.rows.first?.map { Date.fromDatabaseValue($0) }
        #expect(dates == [date, date, date])
        #expect(read.rows.first?.last == .text("2026-05-10 09:30:00.250"))
    }
}
