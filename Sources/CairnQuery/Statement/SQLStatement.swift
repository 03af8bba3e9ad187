/// Any statement of the IR, for code that executes or caches statements of every kind.
public enum SQLStatement: Sendable, Hashable {
    /// A `SELECT` (possibly compound, possibly with `WITH`).
    case select(SQLSelect)
    /// An `INSERT` (possibly an upsert).
    case insert(SQLInsert)
    /// An `UPDATE`.
    case update(SQLUpdate)
    /// A `DELETE`.
    case delete(SQLDelete)
    /// Raw SQL (`#sql`).
    case fragment(SQLFragment)
}
