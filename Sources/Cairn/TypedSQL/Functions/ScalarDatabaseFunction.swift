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
/// A parameter may be a whole `@Table` row (or an optional one, or a table under an alias):
/// SQL passes it as its columns, one argument each, and the closure receives the decoded row.
///
/// ```swift
/// @DatabaseFunction func isPastDue(_ reminder: Reminder) -> Bool { … }
/// // generates `$isPastDue`, which wraps a ScalarDatabaseFunction<Reminder, Bool>
///
/// db.add(function: $isPastDue)
/// try Reminder.where { $isPastDue($0) }.fetchAll(db)
/// // SELECT … FROM "reminders" WHERE "isPastDue"("reminders"."id", …, "reminders"."title")
/// ```
///
/// Arguments arrive decoded as the declared types; a value that does not decode (a `NULL` for
/// a non-optional parameter, text for an `Int`, a row column that does not decode as its
/// property) fails the statement with an error naming the function, the parameter and, for a
/// row, the column. An error the closure throws fails the statement too.
public struct ScalarDatabaseFunction<each Input: QueryRepresentable, Output: QueryBindable>: DatabaseFunctionConvertible {
    /// The SQL name.
    public let name: String
    /// Whether the result depends only on the arguments (lets SQLite factor calls out).
    public let isDeterministic: Bool
    /// The Swift parameters' names, which error messages show (empty when not given).
    public let parameterNames: [String]
    let body: @Sendable (repeat (each Input).QueryOutput) throws -> Output.QueryOutput

    /// A function named `name` whose SQL calls run `body`; `parameterNames` name its
    /// parameters in the errors of arguments that do not decode.
    public init(
        _ name: String, isDeterministic: Bool = false, parameterNames: [String] = [],
        _ body: @escaping @Sendable (repeat (each Input).QueryOutput) throws -> Output.QueryOutput
    ) {
        self.name = name
        self.isDeterministic = isDeterministic
        self.parameterNames = parameterNames
        self.body = body
    }

    /// A call of the function in a query: `"name"(argument, …)`; values are bound, and a row
    /// argument stands for its columns.
    public func callAsFunction<each Argument: QueryExpression>(
        _ arguments: repeat each Argument
    ) -> SQLQueryExpression<Output> where repeat (each Argument).QueryValue == each Input {
        var expressions: [SQLExpression] = []
        for argument in repeat each arguments { expressions += argument.selectedExpressions }
        return SQLQueryExpression(.quotedFunction(name, expressions))
    }

    /// The engine's untyped function: decodes the arguments, runs the closure, encodes the
    /// result.
    public var databaseFunction: DatabaseFunction {
        let body = self.body
        let layout = FunctionArgumentLayout(function: name, parameterNames: parameterNames, repeat (each Input).self)
        return DatabaseFunction(name, argumentCount: layout.argumentCount, isDeterministic: isDeterministic) { values in
            let result = try FunctionArguments.with(values, layout) { arguments in
                try body(repeat try arguments.next((each Input).self))
            }
            return try Output(queryOutput: result).databaseValueForBinding()
        }
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
