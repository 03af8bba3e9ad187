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
    public static func buildExpression(_ term: some QueryOrderingTerm) -> [SQLOrderingTerm] {
        [term.orderingTerm]
    }

    @_disfavoredOverload
    public static func buildExpression<each Term: QueryOrderingTerm>(_ terms: (repeat each Term)) -> [SQLOrderingTerm] {
        var list: [SQLOrderingTerm] = []
        for term in repeat each terms { list.append(term.orderingTerm) }
        return list
    }

    public static func buildBlock(_ parts: [SQLOrderingTerm]...) -> [SQLOrderingTerm] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [SQLOrderingTerm]?) -> [SQLOrderingTerm] { part ?? [] }
    public static func buildEither(first part: [SQLOrderingTerm]) -> [SQLOrderingTerm] { part }
    public static func buildEither(second part: [SQLOrderingTerm]) -> [SQLOrderingTerm] { part }
    public static func buildArray(_ parts: [[SQLOrderingTerm]]) -> [SQLOrderingTerm] { parts.flatMap { $0 } }
}
