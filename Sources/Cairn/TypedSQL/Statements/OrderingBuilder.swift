/// Collects the `ORDER BY` keys of an `order { … }` closure: one expression (ascending), an
/// `asc(nulls:)`/`desc(nulls:)` term, a tuple of them, and, as in StructuredQueries, `if`,
/// `if`/`else` and `switch` choosing among them.
///
/// ```swift
/// Reminder.order {
///     switch ordering {
///     case .dueDate: $0.dueDate.asc(nulls: .last)
///     case .priority: ($0.priority.desc(), $0.isFlagged.desc())
///     }
/// }
/// ```
///
/// Without it a closure whose body is a statement (a `switch` whose cases differ in type)
/// returned `()`, which matched the tuple form with no keys: the query had no `ORDER BY` at
/// all, silently.
@resultBuilder
public enum OrderingBuilder {
    /// Result builder: one statement of the block.
    public static func buildExpression(_ term: some QueryOrderingTerm) -> [SQLOrderingTerm] {
        [term.orderingTerm]
    }

    /// Result builder: a tuple of ordering terms.
    @_disfavoredOverload
    public static func buildExpression<each Term: QueryOrderingTerm>(_ terms: (repeat each Term)) -> [SQLOrderingTerm] {
        var list: [SQLOrderingTerm] = []
        for term in repeat each terms { list.append(term.orderingTerm) }
        return list
    }

    /// Result builder: the statements of a block.
    public static func buildBlock(_ parts: [SQLOrderingTerm]...) -> [SQLOrderingTerm] { parts.flatMap { $0 } }
    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [SQLOrderingTerm]?) -> [SQLOrderingTerm] { part ?? [] }
    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [SQLOrderingTerm]) -> [SQLOrderingTerm] { part }
    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [SQLOrderingTerm]) -> [SQLOrderingTerm] { part }
    /// Result builder: the iterations of a `for` loop.
    public static func buildArray(_ parts: [[SQLOrderingTerm]]) -> [SQLOrderingTerm] { parts.flatMap { $0 } }
}
