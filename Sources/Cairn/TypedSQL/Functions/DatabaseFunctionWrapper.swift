// The `$name` that `@DatabaseFunction` generates: a small struct per Swift function whose
// `callAsFunction` keeps the function's argument labels and default values, over the typed
// function (`ScalarDatabaseFunction` or `AggregateDatabaseFunction`) that does the work.

/// A `@DatabaseFunction`'s `$name`: registered with `db.add(function:)`, called in queries with
/// the Swift function's own labels.
///
/// ```swift
/// @DatabaseFunction func concat(first: String = "", second: String = "") -> String { first + second }
/// try db.add(function: $concat)
/// Values($concat(first: "a"))
/// // SELECT "concat"(?, ?)   -- 'a', ''
/// ```
///
/// Written by hand, the struct holds the typed function as `base` and forwards its calls:
///
/// ```swift
/// struct Concat: DatabaseFunctionWrapper {
///     let base: ScalarDatabaseFunction<String, String, String>
///     func callAsFunction(
///         first: some QueryExpression<String> = "", second: some QueryExpression<String> = ""
///     ) -> SQLQueryExpression<String> { base(first, second) }
/// }
/// ```
public protocol DatabaseFunctionWrapper: DatabaseFunctionConvertible {
    /// The typed function the wrapper's calls go to.
    associatedtype Base: DatabaseFunctionConvertible
    /// The typed function the wrapper's calls go to.
    var base: Base { get }
}

extension DatabaseFunctionWrapper {
    /// The engine's function, to register on a connection.
    public var databaseFunction: DatabaseFunction { base.databaseFunction }
    /// The SQL name.
    public var name: String { databaseFunction.name }
    /// Whether the result depends only on the arguments.
    public var isDeterministic: Bool { databaseFunction.isDeterministic }
}
