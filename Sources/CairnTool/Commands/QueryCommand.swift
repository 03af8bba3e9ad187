/// `cairn query STORE ENTITY`: rows of an entity, filtered with a format predicate.
enum QueryCommand {
    static let spec = CommandSpec(
        name: "query", positionals: ["STORE", "ENTITY"],
        summary: "an entity's rows, filtered with an NSPredicate format string, sorted, paged",
        options: [
            .init(name: "where", value: "FORMAT", help: "an NSPredicate format string over the model's keys"),
            .init(name: "sort", value: "KEY,-KEY", help: "sort keys; a leading - sorts descending"),
            .init(name: "limit", value: "N", help: "at most N rows"),
            .init(name: "offset", value: "N", help: "skip the first N rows"),
            .init(name: "keys", value: "a,b,c", help: "the keys to show (key paths, tags.@count, …); all by default"),
            .init(name: "format", value: "table|json|csv", help: "how rows print (table by default)"),
            .init(name: "explain", value: nil, help: "print the SQL, its bound values and SQLite's query plan instead of rows"),
            .types,
            .model,
        ],
        details: """
            examples:
              cairn query App.sqlite Workout --where 'minutes >= 30 AND title CONTAINS[cd] "run"' --sort -startedAt
              cairn query App.sqlite Book --where 'pages.@count > 100' --keys title,author.alias,pages.@count
              cairn query App.sqlite Workout --where 'startedAt > "2024-03-01"' --format json

            Dates print in ISO 8601 and compare with ISO 8601 strings; to-one relationships print as
            the related row's key; binary values as their size. Types come from the store's model;
            where it has none (a SQLite file, a Cairn store written before it recorded its schema),
            say which columns hold dates and Bools with --types startedAt=date,isFavorite=bool.
            """)

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let format = try OutputFormat(option: arguments.values["format"])
        let store = try StoreFile(path: arguments.positionals[0], modelPath: arguments.values["model"])
        var query = try EntityQuery(store: store, entityName: arguments.positionals[1])
        if let types = arguments.values["types"] { try query.setTypes(types) }
        if let keys = arguments.values["keys"] { try query.selectKeys(keys) } else { query.selectDefaultKeys() }
        if let condition = arguments.values["where"] { try query.filter(condition) }
        try query.sort(arguments.values["sort"])
        let limit = try arguments.integer("limit"), offset = try arguments.integer("offset")
        if arguments.flags.contains("explain") {
            try Explain(query: query).print(limit: limit, offset: offset, console: console)
            return
        }
        var writer = RowWriter(format: format, columns: query.columns.map(\.name), console: console)
        try query.run(limit: limit, offset: offset) { writer.write($0) }
        writer.finish()
    }
}

/// `cairn export STORE ENTITY --format json|csv`: every row of an entity, every key.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "export", positionals: ["STORE", "ENTITY"],
        summary: "every row of an entity as JSON or CSV, keyed by the model's names",
        options: [
            .init(name: "format", value: "json|csv", help: "json (default) or csv"),
            .types,
            .model,
        ],
        details: "example: cairn export App.sqlite Workout --format csv > workouts.csv")

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let format = try OutputFormat(option: arguments.values["format"] ?? "json")
        guard format != .table else { throw ToolError.usage("export writes json or csv; for a table use 'cairn query'") }
        let store = try StoreFile(path: arguments.positionals[0], modelPath: arguments.values["model"])
        var query = try EntityQuery(store: store, entityName: arguments.positionals[1])
        if let types = arguments.values["types"] { try query.setTypes(types) }
        query.selectDefaultKeys()
        try query.sort(nil)
        var writer = RowWriter(format: format, columns: query.columns.map(\.name), console: console)
        try query.run(limit: nil, offset: nil) { writer.write($0) }
        writer.finish()
    }
}
