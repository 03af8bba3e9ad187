// Swift functions callable from typed SQL: the typed functions `@DatabaseFunction`'s `$name`
// wraps, also usable by hand. Registered on a connection with `db.add(function:)`, called in a
// query as `$name(expression, …)`.

/// A scalar SQL function implemented by a Swift closure over typed values.
///
/// ```swift
/// @DatabaseFunction func exclaim(_ text: String) -> String { text + "!" }
/// // generates `$exclaim`, which wraps a ScalarDatabaseFunction<String, String>
///
/// db.add(function: $exclaim)
/// try Reminder.select { $exclaim($0.title) }.fetchAll(db)
/// // SELECT "exclaim"("reminders"."title") FROM "reminders"
/// ```
///
/// With representations, the closure sees the represented values:
/// `ScalarDatabaseFunction<Date.UnixTimeRepresentation, Bool>` reads an `INTEGER` of seconds
/// and hands the closure a `Date`.
///
/// Arguments arrive decoded as the declared types; a value that does not decode (a `NULL` for
/// a non-optional parameter, text for an `Int`) fails the statement with an error naming the
/// function and the argument. An error the closure throws fails the statement too.
public struct ScalarDatabaseFunction<each Input: QueryBindable, Output: QueryBindable>: DatabaseFunctionConvertible {
    /// The SQL name.
    public let name: String
    /// Whether the result depends only on the arguments (lets SQLite factor calls out).
    public let isDeterministic: Bool
    let body: @Sendable (repeat (each Input).QueryOutput) throws -> Output.QueryOutput

    /// A function named `name` whose SQL calls run `body`.
    public init(
        _ name: String, isDeterministic: Bool = false,
        _ body: @escaping @Sendable (repeat (each Input).QueryOutput) throws -> Output.QueryOutput
    ) {
        self.name = name
        self.isDeterministic = isDeterministic
        self.body = body
    }

    /// A call of the function in a query: `"name"(argument, …)`; values are bound.
    public func callAsFunction<each Argument: QueryExpression>(
        _ arguments: repeat each Argument
    ) -> SQLQueryExpression<Output> where repeat (each Argument).QueryValue == each Input {
        var expressions: [SQLExpression] = []
        for argument in repeat each arguments { expressions.append(argument.sqlExpression) }
        return SQLQueryExpression(.quotedFunction(name, expressions))
    }

    /// The engine's untyped function: decodes the arguments, runs the closure, encodes the
    /// result.
    public var databaseFunction: DatabaseFunction {
        let name = self.name
        let body = self.body
        var count = 0
        for _ in repeat (each Input).self { count += 1 }
        return DatabaseFunction(name, argumentCount: count, isDeterministic: isDeterministic) { values in
            var arguments = FunctionArguments(function: name, values: values)
            let result = try body(repeat try arguments.next((each Input).self))
            return try Output(queryOutput: result).databaseValueForBinding()
        }
    }
}

/// Decodes a function call's arguments one after the other as their declared types.
struct FunctionArguments {
    let function: String
    let values: [DatabaseValue]
    var index = 0

    mutating func next<Value: QueryBindable>(_: Value.Type) throws -> Value.QueryOutput {
        defer { index += 1 }
        let value = index < values.count ? values[index] : .null
        guard let decoded = Value.fromDatabaseValue(value) else {
            throw TypedSQLError(
                message: "argument \(index + 1) of \(function)(…) is \(value), which does not decode as \(Value.self)",
                sql: "")
        }
        return decoded.queryOutput
    }
}

/// The result of a `@DatabaseFunction` that returns nothing: SQL `NULL`, `()` in Swift. Such
/// a function runs for its effect, typically from a trigger:
///
/// ```swift
/// @DatabaseFunction func remindersChanged() { … }
/// // var $remindersChanged: ScalarDatabaseFunction<DatabaseVoid>
/// try Reminder.createTemporaryTrigger(after: .update { _, _ in Values($remindersChanged()) })
/// // … BEGIN SELECT "remindersChanged"(); END
/// ```
public struct DatabaseVoid: QueryBindable, Hashable, Sendable {
    /// Wraps a value decoded from a query.
    public init(queryOutput: ()) {}
    /// The value as a query returns it.
    public var queryOutput: () { () }

    /// The value as SQLite stores it.
    public var databaseValue: DatabaseValue { .null }

    /// Whatever the column holds: the function's result carries no value.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> DatabaseVoid? { DatabaseVoid(queryOutput: ()) }

    /// Reads the value from the next result columns of a row.
    public static func decode(from decoder: inout QueryDecoder) throws {
        decoder.skip(width: 1)
    }
}
