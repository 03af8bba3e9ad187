// The `$name` that `@DatabaseFunction` generates: a small struct per Swift function whose
// `callAsFunction` keeps the function's argument labels and default values, over the typed
// function (`ScalarDatabaseFunction` or `AggregateDatabaseFunction`) that does the work.

/// A `@DatabaseFunction`'s `$name`: registered with `db.add(function:)`, called in queries with
/// the Swift function's own labels.
///
/// ```swift
/// @DatabaseFunction func concat(first: String = "", second: String = "") -> String { first + second }
/// db.add(function: $concat)
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

/// What a `@DatabaseFunction` on a class's instance method throws when SQL calls it after the
/// instance was released: the function holds the instance weakly, so registering it does not
/// keep the instance alive.
///
/// ```swift
/// final class Audit: Sendable {
///     @DatabaseFunction func record(_ title: String) { … }
/// }
/// db.add(function: audit.$record)   // then `audit` is released …
/// // SELECT "record"(?) fails: record(…) was called after the instance it belongs to was released
/// ```
public struct DatabaseFunctionOwnerReleased: Error, CustomStringConvertible, Sendable {
    /// The SQL name of the function.
    public let function: String

    /// The error for the function named `function`.
    public init(function: String) { self.function = function }

    /// What happened and what to do.
    public var description: String {
        "\(function)(…) was called after the instance it belongs to was released; "
            + "remove it with db.remove(function:) first, or keep the instance alive while the function is registered"
    }
}
