import CairnSQLite

/// An `INSERT`, `UPDATE` or `DELETE` built by the typed SQL layer, optionally with a
/// `RETURNING` clause whose rows decode as `Returning`.
public protocol WriteStatement<Returning>: Sendable {
    /// The decoded type of a `RETURNING` row; `()` without `RETURNING`.
    associatedtype Returning
    /// The statement as IR; throws when a value could not be bound (for example a JSON
    /// column whose value does not encode).
    func sqlStatement() throws -> SQLStatement
    /// Decodes one `RETURNING` row; `nil` without `RETURNING`.
    var decodeReturning: (@Sendable (inout QueryDecoder) throws -> Returning)? { get }
    /// Cairn: the statement as a template whose SQL text depends only on its table
    /// (``SQLTemplate``), when it is one; `nil` by default.
    var sqlTemplate: SQLTemplate? { get }
    /// Whether the statement has nothing to do (an `INSERT` of no rows): it renders as empty
    /// text, `execute` runs nothing and `fetchAll` returns no rows, as in StructuredQueries.
    var isEmpty: Bool { get }
}

extension WriteStatement {
    /// `nil`: the statement runs as its IR.
    public var sqlTemplate: SQLTemplate? { nil }
    /// `false`: the statement always has something to run.
    public var isEmpty: Bool { false }
}

/// A write statement's IR as written, or the template it runs as (an `INSERT` of whole rows,
/// an `UPDATE` of a whole row) until anything is added to it: changing the IR drops the
/// template, and reading it writes the template's statement.
struct TemplatedStatement<IR: TemplatedStatementIR>: Sendable {
    private var written: IR
    /// The template, while the statement is nothing more.
    private(set) var template: SQLTemplate?

    /// A statement of `written`, with no template.
    init(_ written: IR) { self.written = written }

    /// The statement `template`; `placeholder` is never read while the template stands.
    init(_ template: SQLTemplate, placeholder: IR) {
        self.written = placeholder
        self.template = template
    }

    /// The statement as IR.
    var ir: IR {
        get {
            if let template, let ir = IR(template.statement) { return ir }
            return written
        }
        set {
            written = newValue
            template = nil
        }
    }
}

/// The IR of a statement kind that a ``TemplatedStatement`` can hold.
protocol TemplatedStatementIR: Sendable {
    /// The IR of `statement` when it is of this kind.
    init?(_ statement: SQLStatement)
}

extension SQLInsert: TemplatedStatementIR {
    init?(_ statement: SQLStatement) {
        guard case .insert(let insert) = statement else { return nil }
        self = insert
    }
}

extension SQLUpdate: TemplatedStatementIR {
    init?(_ statement: SQLStatement) {
        guard case .update(let update) = statement else { return nil }
        self = update
    }
}

extension WriteStatement {
    /// The statement as SQL text and bound arguments, rendered once per statement shape
    /// (``SQLRenderCache``; multi-row inserts with many values are rendered directly). An
    /// empty statement (``isEmpty``) renders as empty text.
    public func render() throws -> RenderedSQL {
        if isEmpty { return RenderedSQL(sql: "") }
        return try SQLRenderCache.shared.render(sqlStatement())
    }

    /// Runs the statement (its `RETURNING` rows, if any, are discarded).
    ///
    /// ```swift
    /// try Reminder.where { $0.isCompleted }.delete().execute(db)
    /// // DELETE FROM "reminders" WHERE "reminders"."isCompleted"
    /// ```
    public func execute(_ db: some QueryConnection) throws {
        if isEmpty { return }
        if let sqlTemplate { return try db.execute(sqlTemplate) }
        try db.execute(sqlStatement())
    }

    /// Runs the statement and decodes every `RETURNING` row.
    ///
    /// ```swift
    /// let ids = try Reminder.insert { Reminder.Draft(title: "Milk", remindersListID: 1) }
    ///     .returning(\.id).fetchAll(db)
    /// // INSERT INTO "reminders" (…) VALUES (…) RETURNING "id"
    /// ```
    public func fetchAll(_ db: some QueryConnection) throws -> [Returning] {
        if isEmpty { return [] }
        return try fetchRows(db, sqlStatement(), returningDecoder())
    }

    /// Runs the statement and decodes the first `RETURNING` row.
    public func fetchOne(_ db: some QueryConnection) throws -> Returning? {
        try fetchAll(db).first
    }

    private func returningDecoder() throws -> @Sendable (inout QueryDecoder) throws -> Returning {
        guard let decodeReturning else {
            throw TypedSQLError(message: "the statement has no `returning` clause to decode rows with",
                                sql: (try? render().sql) ?? "")
        }
        return decodeReturning
    }
}

/// Builds the `RETURNING` list and its decoder from a closure over a table's columns.
enum CairnReturning {
    static func columns<T: Table, each C: QueryExpression>(
        _: T.Type, _ selection: (T.TableColumns) -> (repeat each C)
    ) -> (columns: [SQLSelectColumn], decode: @Sendable (inout QueryDecoder) throws -> (repeat (each C).QueryValue.QueryOutput))
    where repeat (each C).QueryValue: QueryRepresentable {
        let selected = selection(T.columns)
        var expressions: [SQLExpression] = []
        for column in repeat each selected { expressions += column.selectedExpressions }
        let columns = expressions.map { SQLSelectColumn($0) }
        return (columns, { decoder in (repeat try (each C).QueryValue.decode(from: &decoder)) })
    }
}

/// The rows of an `INSERT`, written with a result builder: one row per line, arrays, `if`
/// and `for`. Whole rows and drafts may be mixed: each row then goes in with its own key, each
/// draft without one lets the database assign it.
///
/// ```swift
/// Tag.insert {
///     Tag.Draft(title: "home")
///     Tag.Draft(title: "work")
/// }
/// Tag.insert {
///     Tag(id: 12, title: "car")
///     Tag.Draft(title: "kids")
/// }
/// // INSERT INTO "tags" ("id", "title") VALUES (?, ?), (?, ?)   -- 12, 'car', NULL, 'kids'
/// ```
@resultBuilder
public enum InsertValuesBuilder<Row> {
    /// Result builder: one statement of the block.
    @_disfavoredOverload
    public static func buildExpression(_ row: Row) -> [Row] { [row] }
    /// Result builder: one statement of the block.
    public static func buildExpression(_ rows: [Row]) -> [Row] { rows }
    /// Result builder: the statements of a block.
    public static func buildBlock(_ parts: [Row]...) -> [Row] { parts.flatMap { $0 } }
    /// Result builder: the iterations of a `for` loop.
    public static func buildArray(_ parts: [[Row]]) -> [Row] { parts.flatMap { $0 } }
    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [Row]?) -> [Row] { part ?? [] }
    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [Row]) -> [Row] { first }
    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [Row]) -> [Row] { second }
}

extension InsertValuesBuilder where Row: TableDraft {
    /// Result builder: a whole row among drafts, inserted as the draft made from it (its key
    /// kept).
    public static func buildExpression(_ row: Row.Into) -> [Row] { [Row(row)] }
    /// Result builder: whole rows among drafts. Disfavored, so that `insert { [] }` is no drafts.
    @_disfavoredOverload
    public static func buildExpression(_ rows: [Row.Into]) -> [Row] { rows.map(Row.init) }
}
