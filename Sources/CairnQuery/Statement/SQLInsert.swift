/// An `INSERT` statement, optionally an upsert, optionally `RETURNING`.
///
/// ```swift
/// let insert = SQLInsert(into: "tags", columns: ["name", "count"],
///                        values: [[.value(.text("home")), .value(.integer(1))]])
///     .onConflict(["name"], doUpdate: [
///         SQLAssignment("count", .column("count").plus(.excluded("count"))),
///     ])
///     .returning([SQLSelectColumn(.column("id"))])
/// try insert.render().sql
/// // INSERT INTO "tags" ("name", "count") VALUES (?, ?)
/// //   ON CONFLICT ("name") DO UPDATE SET "count" = "count" + "excluded"."count" RETURNING "id"
/// ```
public struct SQLInsert: Sendable, Hashable {
    /// Where the inserted rows come from.
    public enum Source: Sendable, Hashable {
        /// `VALUES (…), (…)`: every row has one expression per column.
        case values([[SQLExpression]])
        /// `SELECT …`
        case select(SQLSelect)
        /// `DEFAULT VALUES`
        case defaultValues
    }

    /// The table written.
    public var table: String
    /// The schema (an attached SQLite database, a PostgreSQL schema) that holds the table, or
    /// `nil` for the one the connection finds it in: `INSERT INTO "schema"."table"`.
    public var schema: String?
    /// An alias usable in the upsert's `DO UPDATE` clause: `INSERT INTO "t" AS "r" …`.
    public var alias: String?
    /// The columns given; empty means every column in table order.
    public var columns: [String]
    /// The rows.
    public var source: Source
    /// The `ON CONFLICT` clause, if any.
    public var upsert: SQLUpsert?
    /// `RETURNING` columns; empty renders no clause.
    public var returning: [SQLSelectColumn] = []

    /// An insert of rows of values.
    public init(
        into table: String, schema: String? = nil, as alias: String? = nil, columns: [String], values rows: [[SQLExpression]]
    ) {
        self.table = table
        self.schema = schema
        self.alias = alias
        self.columns = columns
        self.source = .values(rows)
    }

    /// An insert from any source (`VALUES`, `SELECT` or `DEFAULT VALUES`).
    public init(into table: String, schema: String? = nil, as alias: String? = nil, columns: [String] = [], source: Source) {
        self.table = table
        self.schema = schema
        self.alias = alias
        self.columns = columns
        self.source = source
    }

    /// Adds `ON CONFLICT [(target)] DO UPDATE SET … [WHERE …]`; reference the proposed row
    /// with ``SQLExpression/excluded(_:)``.
    public func onConflict(
        _ target: [String], where targetCondition: SQLExpression? = nil,
        doUpdate assignments: [SQLAssignment], updateWhere: SQLExpression? = nil
    ) -> SQLInsert {
        var copy = self
        copy.upsert = SQLUpsert(
            target: target, targetCondition: targetCondition,
            action: .update(assignments, condition: updateWhere))
        return copy
    }

    /// Adds `ON CONFLICT [(target)] DO NOTHING`.
    public func onConflictDoNothing(_ target: [String] = []) -> SQLInsert {
        var copy = self
        copy.upsert = SQLUpsert(target: target, targetCondition: nil, action: .nothing)
        return copy
    }

    /// Sets the `RETURNING` columns.
    public func returning(_ columns: [SQLSelectColumn]) -> SQLInsert {
        var copy = self
        copy.returning = columns
        return copy
    }

    /// Sets the `RETURNING` columns from unnamed expressions: `RETURNING "id", "title"`.
    public func returning(_ expressions: [SQLExpression]) -> SQLInsert {
        returning(expressions.map { SQLSelectColumn($0) })
    }
}

/// The `ON CONFLICT` clause of an insert.
public struct SQLUpsert: Sendable, Hashable {
    /// What to do on conflict.
    public enum Action: Sendable, Hashable {
        /// `DO NOTHING`
        case nothing
        /// `DO UPDATE SET … [WHERE …]`
        case update([SQLAssignment], condition: SQLExpression?)
    }

    /// The conflict target columns; empty omits the target.
    public var target: [String]
    /// The `WHERE` of a partial-index target.
    public var targetCondition: SQLExpression?
    /// The action.
    public var action: Action

    /// An `ON CONFLICT` clause.
    public init(target: [String], targetCondition: SQLExpression? = nil, action: Action) {
        self.target = target
        self.targetCondition = targetCondition
        self.action = action
    }
}
