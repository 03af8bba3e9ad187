import CairnSQLite

/// The state of one rendering: the dialect, the SQL text so far and the argument sink.
///
/// Rendering walks the IR in clause order and appends to `sql`; every value goes through
/// ``bind(_:)``, which appends it to `arguments` and writes the dialect's placeholder, so the
/// numbering of `$n` placeholders spans subqueries and clauses.
struct SQLGenerationContext {
    let dialect: any SQLDialect
    var sql = ""
    var arguments: [DatabaseValue] = []

    static func render(
        _ dialect: any SQLDialect, _ body: (inout SQLGenerationContext) throws -> Void
    ) throws -> RenderedSQL {
        var context = SQLGenerationContext(dialect: dialect)
        try body(&context)
        return RenderedSQL(sql: context.sql, arguments: context.arguments)
    }

    // MARK: - Tokens

    mutating func emit(_ text: String) {
        sql += text
    }

    /// A placeholder for `value`; the value joins the arguments.
    mutating func bind(_ value: DatabaseValue) {
        arguments.append(value)
        sql += dialect.placeholder(at: arguments.count)
    }

    /// A quoted identifier.
    mutating func identifier(_ name: String) throws {
        guard !name.contains("\0") else { throw SQLRenderError(reason: .invalidIdentifier(name)) }
        sql += dialect.quote(identifier: name)
    }

    /// Quoted identifiers separated by commas.
    mutating func identifiers(_ names: [String]) throws {
        for (index, name) in names.enumerated() {
            if index > 0 { emit(", ") }
            try identifier(name)
        }
    }

    /// A bare name (function, collation), checked so nothing but a name reaches the text.
    mutating func bareName(_ name: String, kind: String) throws {
        guard Self.isBareName(name) else {
            throw SQLRenderError(reason: .invalidName(
                kind: kind, name: name,
                allowed: "letters, digits and '_' only, not starting with a digit"))
        }
        sql += name
    }

    static func isBareName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first,
            ("a"..."z").contains(first) || ("A"..."Z").contains(first) || first == "_"
        else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || " _(),".unicodeScalars.contains($0)
        }
    }

    /// Renders `body` into a separate string (arguments still go to the shared sink, in order).
    mutating func capture(_ body: (inout SQLGenerationContext) throws -> Void) rethrows -> String {
        let saved = sql
        sql = ""
        defer { sql = saved }
        try body(&self)
        return sql
    }

    /// Items separated by commas.
    mutating func list<T>(_ items: [T], _ render: (inout SQLGenerationContext, T) throws -> Void) rethrows {
        for (index, item) in items.enumerated() {
            if index > 0 { emit(", ") }
            try render(&self, item)
        }
    }
}
