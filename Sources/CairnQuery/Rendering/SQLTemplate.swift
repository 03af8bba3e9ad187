import CairnSQLite

/// A statement known by an identity rather than by its IR: its SQL text depends only on the
/// identity, so a render cache renders it once per identity, from its shape, and each run
/// only binds its values (``SQLRenderCache/rendering(of:)``).
///
/// The typed SQL builder runs `Reminder.find(42)` as one: the text of a primary-key lookup
/// depends only on the table, so a lookup neither builds its `SELECT` nor compares it with
/// the cached one.
///
/// ```swift
/// enum ReminderLookup: SQLTemplateStatement {
///     static func statement(for kind: SQLTemplate.Kind, _ values: [SQLExpression]) -> SQLStatement {
///         .select(SQLSelect(from: "reminders").where(.column("id").equals(values[0])))
///     }
/// }
/// let lookup = SQLTemplate(Reminder.self, .primaryKeyLookup, values: [.integer(42)], statement: ReminderLookup.self)
/// try SQLRenderCache.shared.rendering(of: lookup)
/// // SELECT * FROM "reminders" WHERE "id" = ?   -- [42]; rendered once for every key
/// ```
///
/// A run served from the cache never writes the statement, so what writes it is a type, not
/// a value: a template holds no closure or captured state to allocate, copy and release on
/// every run, only its values.
public struct SQLTemplate: Sendable {
    /// What a template's SQL text depends on: every template of one identity must make the
    /// same statement from the same values.
    public struct Identity: Hashable, Sendable {
        let type: ObjectIdentifier
        let kind: Kind

        /// The identity of the `kind` statement of `type` (a table type).
        public init(_ type: Any.Type, _ kind: Kind) {
            self.type = ObjectIdentifier(type)
            self.kind = kind
        }
    }

    /// The statements a type can have templates for.
    public enum Kind: Hashable, Sendable {
        /// Every column of the rows whose primary key equals the one value.
        case primaryKeyLookup
        /// An `UPDATE` of every column but the key (the values in column order) of the row
        /// whose key is the last value.
        case rowUpdate
        /// An `INSERT` of `count` whole rows, their values row after row.
        case rowsInsert(count: Int)

        /// The most rows an insert template holds: a larger insert is rendered each time, so
        /// that a cache of one text per row count stays small.
        public static let mostInsertedRows = 1_000
    }

    /// What the SQL text depends on.
    public let identity: Identity
    /// The values, in the order the statement takes them.
    public let values: [DatabaseValue]
    /// Writes the statement, with `expressions[i]` standing for `values[i]`.
    private let writer: any SQLTemplateStatement.Type

    /// A template of identity `(type, kind)` for `values`; `statement` writes its statement
    /// with the expressions it is given in place of the values, and must write the same
    /// statement for every template of that identity.
    public init(_ type: Any.Type, _ kind: Kind, values: [DatabaseValue], statement: any SQLTemplateStatement.Type) {
        self.identity = Identity(type, kind)
        self.values = values
        self.writer = statement
    }

    /// The statement with a ``SQLExpression/parameter(_:)`` for each value: what a cache renders.
    public var shape: SQLStatement { writer.statement(for: identity.kind, values.indices.map { .parameter($0) }) }

    /// The statement with its values bound: what a connection that keeps no templates runs.
    public var statement: SQLStatement { writer.statement(for: identity.kind, values.map { .value($0) }) }
}

/// What writes the statement of an ``SQLTemplate`` from the expressions that stand for its
/// values: parameters when a cache renders its shape, bound values when it runs uncached.
/// Everything else the statement depends on is the conforming type's (a table's name and
/// columns), which is what lets a template's identity stand for its SQL text.
public protocol SQLTemplateStatement: SendableMetatype {
    /// The statement of a `kind` template, with `expressions[i]` standing for its `values[i]`.
    static func statement(for kind: SQLTemplate.Kind, _ expressions: [SQLExpression]) -> SQLStatement
}

extension SQLExpression {
    /// The value this expression binds, if it is a bound value (``value(_:)``), else `nil`.
    public var boundValue: DatabaseValue? {
        if case .value(let value) = node { value } else { nil }
    }
}
