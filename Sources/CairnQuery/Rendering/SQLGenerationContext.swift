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
    var parameterSlots: [RenderedSQL.ParameterSlot] = []

    static func render(
        _ dialect: any SQLDialect, _ body: (inout SQLGenerationContext) throws -> Void
    ) throws -> RenderedSQL {
        var context = SQLGenerationContext(dialect: dialect)
        try body(&context)
        var rendered = RenderedSQL(sql: context.sql, arguments: context.arguments)
        rendered.parameterSlots = context.parameterSlots
        return rendered
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

    /// A placeholder for a parameter supplied later; `NULL` holds its argument slot until then.
    mutating func bindParameter(_ index: Int) {
        parameterSlots.append(RenderedSQL.ParameterSlot(argument: arguments.count, parameter: index))
        bind(.null)
    }

    /// A quoted identifier.
    mutating func identifier(_ name: String) throws {
        guard !name.utf8.contains(0) else { throw SQLRenderError(reason: .invalidIdentifier(name)) }
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

    /// A type name such as `INTEGER`, `DOUBLE PRECISION` or `DECIMAL(10, 2)`: words, then at
    /// most one parenthesized list of numbers at the end (so nothing can close `CAST(`).
    static func isTypeName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        let open = scalars.firstIndex(of: "(") ?? scalars.endIndex
        let words = scalars[..<open]
        guard let first = words.first, isLetter(first) || first == "_",
            words.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == " " })
        else { return false }
        guard open < scalars.endIndex else { return true }
        let modifiers = scalars[(open + 1)...]
        guard modifiers.last == ")" else { return false }
        return modifiers.dropLast().allSatisfy { ("0"..."9").contains($0) || $0 == "," || $0 == " " }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
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
