import CairnSQLite

/// `cairn sql STORE "SELECT …"`: one raw SQL statement, read-only unless `--write`.
enum SQLCommand {
    static let spec = CommandSpec(
        name: "sql", positionals: ["STORE", "SQL"],
        summary: "run one SQL statement; the file is opened read-only unless --write",
        options: [
            .init(name: "write", value: nil, help: "open the file for writing, so the statement may change it"),
            .init(name: "format", value: "table|json|csv", help: "how rows print (table by default)"),
        ],
        details: """
            example: cairn sql App.sqlite "SELECT Z_ENT, count(*) FROM ZBOOK GROUP BY Z_ENT"

            Values print as SQLite stores them (no model: dates are seconds since 2001).
            """)

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let format = try OutputFormat(option: arguments.values["format"])
        let path = arguments.positionals[0], sql = arguments.positionals[1]
        let writable = arguments.flags.contains("write")
        try StoreFile.checkIsSQLite(path)
        let db: Database
        do {
            db = try Database(path: StoreFile.uri(path, writable: writable), configuration: StoreFile.configuration(writable: writable))
        } catch {
            throw ToolError.failure("cannot open \(path): \(error)")
        }
        let statement: Statement
        do {
            statement = try db.makeStatement(sql: sql)
        } catch {
            throw ToolError.failure("\(error)")
        }
        guard statement.isReadOnly || writable else {
            throw ToolError.usage("this statement changes the file, which is open read-only; add --write to run it")
        }
        if statement.columnCount == 0 {
            try statement.execute()
            console.out("\(db.changesCount) \(db.changesCount == 1 ? "row" : "rows") changed\n")
            return
        }
        var writer = RowWriter(format: format, columns: statement.columnNames, console: console)
        try statement.forEachRow { row in
            writer.write((0..<row.count).map { Cell(row.databaseValue(at: $0), type: .unknown) })
        }
        writer.finish()
    }
}
