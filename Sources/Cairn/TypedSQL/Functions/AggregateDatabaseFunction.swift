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
/// inputs each element is a tuple, one value per argument. A value that does not decode as its
/// declared type, or an error the closure throws, fails the statement with an error naming the
/// function (and the argument).
public struct AggregateDatabaseFunction<each Input: QueryBindable, Output: QueryBindable>: DatabaseFunctionConvertible {
    /// The SQL name.
    public let name: String
    /// Whether the result depends only on the arguments.
    public let isDeterministic: Bool
    let body: @Sendable ([(repeat (each Input).QueryOutput)]) throws -> Output.QueryOutput

    /// A function named `name` whose SQL calls run `body` once per group.
    public init(
        _ name: String, isDeterministic: Bool = false,
        _ body: @escaping @Sendable ([(repeat (each Input).QueryOutput)]) throws -> Output.QueryOutput
    ) {
        self.name = name
        self.isDeterministic = isDeterministic
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
        for argument in repeat each arguments { expressions.append(argument.sqlExpression) }
        return SQLQueryExpression(.aggregate(SQLAggregate(
            name: name, arguments: expressions, distinct: distinct,
            ordering: order.map { [$0.orderingTerm] } ?? [], filter: filter?.sqlExpression,
            quotesName: true)))
    }

    /// The engine's untyped function: decodes each row's arguments, collects them per group and
    /// runs the closure at the group's end.
    public var databaseFunction: DatabaseFunction {
        let name = self.name
        let body = self.body
        var count = 0
        for _ in repeat (each Input).self { count += 1 }
        return DatabaseFunction(name, argumentCount: count, isDeterministic: isDeterministic) {
            Group<repeat each Input, Output>(name: name, body: body)
        }
    }

    /// One group's decoded rows.
    struct Group<each Value: QueryBindable, Result: QueryBindable>: DatabaseAggregate {
        let name: String
        let body: @Sendable ([(repeat (each Value).QueryOutput)]) throws -> Result.QueryOutput
        var rows: [(repeat (each Value).QueryOutput)] = []

        mutating func step(_ values: [DatabaseValue]) throws {
            var arguments = FunctionArguments(function: name, values: values)
            rows.append((repeat try arguments.next((each Value).self)))
        }

        func finalize() throws -> (any DatabaseValueConvertible)? {
            try Result(queryOutput: body(rows)).databaseValueForBinding()
        }
    }
}
