import CairnSQLite

/// The state of one rendering: the dialect, the SQL text so far and the argument sink.
///
/// Rendering walks the IR in clause order and appends to the text; every value goes through
/// ``bind(_:)``, which appends it to `arguments` and writes the dialect's placeholder, so the
/// numbering of `$n` placeholders spans subqueries and clauses.
///
/// The text is gathered as UTF-8 bytes in a buffer the context owns and becomes a `String`
/// once, at the end. Appending a short token to a `String` cost 150–250 instructions (growth
/// checks, count and flag updates), and to a `[UInt8]` about 60; a statement is hundreds of
/// tokens (a typed 500-row INSERT spent about 5,000 instructions a row on its text, callgrind,
/// typed SQL W1). The context is noncopyable, so the buffer has exactly one owner.
struct SQLGenerationContext: ~Copyable {
    let dialect: any SQLDialect
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCount = 0
    private var byteCapacity: Int
    var arguments: [DatabaseValue] = []
    var parameterSlots: [RenderedSQL.ParameterSlot] = []
    /// Whether values are written as SQL literals instead of bound (``SQLLiterals``), and the
    /// first value that has no literal form.
    var inlinesValues = false
    var inliningFailure: SQLRenderError?
    /// The alias of the table a write's `RETURNING` clause is rendering, whose columns are
    /// written unqualified there: SQLite resolves `"r"."id"` in the `WHERE` of
    /// `DELETE FROM "t" AS "r"` but not in its `RETURNING` ("no such column: r.id"), where a
    /// bare `"id"` can only mean the written table's column.
    var unqualifiedAlias: String?

    /// The dialect's placeholder when it is one byte whatever its position (SQLite's `?`), so
    /// that binding a value writes that byte instead of asking the dialect each time.
    private let placeholderByte: UInt8?

    /// Whether the dialect quotes identifiers as `SQLDialect`'s default `quote(identifier:)`
    /// does (the built-in ones), so that ``identifier(_:)`` writes them without asking it.
    private let quotesAsDefault: Bool

    init(dialect: any SQLDialect) {
        self.dialect = dialect
        byteCapacity = 256
        bytes = .allocate(capacity: byteCapacity)
        let first = dialect.placeholder(at: 1)
        placeholderByte = first.utf8.count == 1 && first == dialect.placeholder(at: 2) ? first.utf8.first : nil
        // The dynamic type compared as a pointer: `is` went through the runtime's cast (about
        // 250 instructions a rendering).
        let dialectType = type(of: dialect)
        quotesAsDefault = dialectType == SQLiteDialect.self || dialectType == PostgreSQLDialect.self
    }

    deinit {
        bytes.deallocate()
    }

    /// The SQL written so far.
    var sql: String { text(from: 0) }

    private func text(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + start, count: byteCount - start), as: UTF8.self)
    }

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

    /// Appends a token written in the source (keywords, punctuation): its bytes are read in
    /// place, with no `String` in between.
    mutating func emit(_ token: StaticString) {
        append(token.utf8Start, count: token.utf8CodeUnitCount)
    }

    /// Appends text made at run time (a quoted identifier, a dialect's spelling).
    mutating func emit(text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard let source = utf8.baseAddress else { return }
            append(source, count: utf8.count)
        }
    }

    /// ` <operator> `: the spelling padded with a space on either side.
    mutating func emitOperator(_ spelling: String) {
        emit(" ")
        emit(text: spelling)
        emit(" ")
    }

    @inline(__always)
    private mutating func append(_ source: UnsafePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        if byteCount + count > byteCapacity { grow(toHold: byteCount + count) }
        // Most tokens are a byte or two ("?", ", "): stored directly, without a call.
        if count <= 2 {
            bytes[byteCount] = source[0]
            if count == 2 { bytes[byteCount + 1] = source[1] }
        } else {
            (bytes + byteCount).update(from: source, count: count)
        }
        byteCount += count
    }

    private mutating func grow(toHold needed: Int) {
        var capacity = byteCapacity * 2
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = grown
        byteCapacity = capacity
    }

    /// A placeholder for `value`; the value joins the arguments.
    mutating func bind(_ value: DatabaseValue) {
        if inlinesValues {
            do { emit(text: try SQLLiterals.literal(value)) } catch { inliningFailure = inliningFailure ?? error }
            return
        }
        arguments.append(value)
        if var byte = placeholderByte {
            append(&byte, count: 1)
        } else {
            emit(text: dialect.placeholder(at: arguments.count))
        }
    }

    /// A placeholder for a parameter supplied later; `NULL` holds its argument slot until then.
    mutating func bindParameter(_ index: Int) {
        if inlinesValues {
            inliningFailure = inliningFailure ?? SQLRenderError(reason: .parameterNotInlinable(index: index))
            return
        }
        parameterSlots.append(RenderedSQL.ParameterSlot(argument: arguments.count, parameter: index))
        bind(.null)
    }

    /// A quoted identifier.
    ///
    /// For the built-in dialects, which quote as `SQLDialect`'s default does, the name is
    /// copied into the text in one pass that doubles quotes and looks for NUL. Asking the
    /// dialect made a `String` per identifier, and `utf8.contains` walked the name through
    /// `String`'s index a byte at a time: about 1,500 instructions for a column name
    /// (callgrind), so a `SELECT` of seven columns spent more on its names than on the rest.
    mutating func identifier(_ name: String) throws {
        var name = name
        let written = name.withUTF8 { utf8 -> Bool in
            guard quotesAsDefault else { return !utf8.contains(0) }
            // At worst every byte is a quote and is doubled.
            if byteCount + 2 * utf8.count + 2 > byteCapacity { grow(toHold: byteCount + 2 * utf8.count + 2) }
            let (count, hasNUL) = writeQuotedIdentifier(utf8, to: bytes + byteCount)
            if hasNUL { return false }
            byteCount += count
            return true
        }
        guard written else { throw SQLRenderError(reason: .invalidIdentifier(name)) }
        if !quotesAsDefault { emit(text: dialect.quote(identifier: name)) }
    }

    /// Quoted identifiers separated by commas.
    /// `"schema"."name"`, or `"name"` without a schema.
    mutating func qualifiedIdentifier(_ name: String, schema: String?) throws {
        if let schema {
            try identifier(schema)
            emit(".")
        }
        try identifier(name)
    }

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
        emit(text: name)
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
        let start = byteCount
        defer { byteCount = start }
        try body(&self)
        return text(from: start)
    }

    /// Items separated by commas.
    mutating func list<T>(_ items: [T], _ render: (inout SQLGenerationContext, T) throws -> Void) rethrows {
        for (index, item) in items.enumerated() {
            if index > 0 { emit(", ") }
            try render(&self, item)
        }
    }
}
