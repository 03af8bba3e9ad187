// Aggregate Swift functions callable from typed SQL: the typed function `@DatabaseFunction`'s
// `$name` wraps when the Swift function takes a `some Sequence<…>`.

/// An aggregate SQL function implemented by a Swift closure over a group's typed values.
///
/// ```swift
/// @DatabaseFunction func joined(_ titles: some Sequence<String>) -> String {
///     titles.joined(separator: ", ")
/// }
/// // generates `$joined`, which wraps an AggregateDatabaseFunction<String, String>
///
/// db.add(function: $joined)
/// try Reminder.group(by: \.remindersListID).select { $joined($0.title) }.fetchAll(db)
/// // SELECT "joined"("reminders"."title") FROM "reminders" GROUP BY "reminders"."remindersListID"
/// ```
///
/// SQLite feeds the function each row of a group; the closure runs once per group, at its end,
/// with the group's values in order (an empty array for a group with no rows). With several
/// inputs each element is a tuple, one value per argument. An input may be a whole `@Table` row,
/// passed as its columns (`Tag.select { $tagged($0) }` calls `"tagged"("tags"."id",
/// "tags"."title")`). A value that does not decode as its declared type, or an error the
/// closure throws, fails the statement with an error naming the function (and the argument).
public struct AggregateDatabaseFunction<each Input: QueryRepresentable, Output: QueryBindable>: DatabaseFunctionConvertible {
    /// The SQL name.
    public let name: String
    /// Whether the result depends only on the arguments.
    public let isDeterministic: Bool
    /// The Swift parameters' names, which error messages show (empty when not given).
    public let parameterNames: [String]
    let body: @Sendable ([(repeat (each Input).QueryOutput)]) throws -> Output.QueryOutput

    /// A function named `name` whose SQL calls run `body` once per group; `parameterNames`
    /// name its parameters in the errors of arguments that do not decode.
    public init(
        _ name: String, isDeterministic: Bool = false, parameterNames: [String] = [],
        _ body: @escaping @Sendable ([(repeat (each Input).QueryOutput)]) throws -> Output.QueryOutput
    ) {
        self.name = name
        self.isDeterministic = isDeterministic
        self.parameterNames = parameterNames
        self.body = body
    }

    /// A call of the function in a query:
    /// `"name"([DISTINCT] argument, … [ORDER BY …]) [FILTER (WHERE …)]`; `order` sets the order
    /// in which the group's values reach the function (SQLite 3.44 or later).
    ///
    /// ```swift
    /// Reminder.select { $joined($0.title, distinct: true, filter: $0.isCompleted) }
    /// // SELECT "joined"(DISTINCT "reminders"."title") FILTER (WHERE "reminders"."isCompleted") …
    /// Reminder.select { $joined($0.title, order: $0.title.desc()) }
    /// // SELECT "joined"("reminders"."title" ORDER BY "reminders"."title" DESC) …
    /// ```
    public func callAsFunction<each Argument: QueryExpression>(
        _ arguments: repeat each Argument,
        distinct: Bool = false,
        order: (any QueryOrderingTerm)? = nil,
        filter: (any QueryExpression<Bool>)? = nil
    ) -> SQLQueryExpression<Output> where repeat (each Argument).QueryValue == each Input {
        var expressions: [SQLExpression] = []
        for argument in repeat each arguments { expressions += argument.selectedExpressions }
        return SQLQueryExpression(.aggregate(SQLAggregate(
            name: name, arguments: expressions, distinct: distinct,
            ordering: order.map { [$0.orderingTerm] } ?? [], filter: filter?.sqlExpression,
            quotesName: true)))
    }

    /// The engine's untyped function: decodes each row's arguments, collects them per group and
    /// runs the closure at the group's end.
    public var databaseFunction: DatabaseFunction {
        let body = self.body
        let layout = FunctionArgumentLayout(function: name, parameterNames: parameterNames, repeat (each Input).self)
        return DatabaseFunction(name, argumentCount: layout.argumentCount, isDeterministic: isDeterministic) {
            Group<repeat each Input, Output>(layout: layout, body: body)
        }
    }

    /// One group's decoded rows.
    struct Group<each Value: QueryRepresentable, Result: QueryBindable>: DatabaseAggregate {
        let layout: FunctionArgumentLayout
        let body: @Sendable ([(repeat (each Value).QueryOutput)]) throws -> Result.QueryOutput
        var rows: [(repeat (each Value).QueryOutput)] = []

        mutating func step(_ values: [DatabaseValue]) throws {
            let row = try FunctionArguments.with(values, layout) { arguments in
                (repeat try arguments.next((each Value).self))
            }
            rows.append(row)
        }

        func finalize() throws -> (any DatabaseValueConvertible)? {
            try Result(queryOutput: body(rows)).databaseValueForBinding()
        }
    }
}
