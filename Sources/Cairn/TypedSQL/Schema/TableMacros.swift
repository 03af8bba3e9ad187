// The typed SQL macros. Each expands to plain Swift a user could write by hand (the
// conformances documented on `Table`, `PrimaryKeyedTable` and `SelectionRow`).

/// Makes a struct a table: `@Table` infers the name (`RemindersList` → `remindersLists`),
/// `@Table("lists")` gives it, and `@Table("lists", schema: "aux")` the schema that holds it
/// (an attached SQLite database, a PostgreSQL schema): `FROM "aux"."lists"`. A property named
/// `id` is the primary key.
///
/// ```swift
/// @Table
/// struct Reminder: Identifiable {
///     let id: Int
///     var title = ""
///     var isCompleted = false
///     var remindersListID: RemindersList.ID
/// }
/// Reminder.where { !$0.isCompleted }
/// // SELECT "reminders"."id", "reminders"."title", … FROM "reminders"
/// // WHERE NOT "reminders"."isCompleted"
/// ```
///
/// Its `Columns` selects into the row, one expression per column (see ``SelectionRow``), as a
/// common table expression or a view does:
///
/// ```swift
/// @Table struct Tag { let id: Int; var title = "" }
/// Reminder.select { Tag.Columns(id: $0.id, title: $0.title) }
/// // SELECT "reminders"."id", "reminders"."title" FROM "reminders"
/// ```
@attached(
    extension, conformances: Table, PrimaryKeyedTable, BindableRow, InsertableRow, SelectionRow,
    names: named(TableColumns), named(Columns), named(columns), named(tableName), named(schemaName), named(columnWidth),
    named(init(decoder:)),
    named(decode(from:)), named(Into), named(databaseValues), named(Draft), named(primaryKey))
public macro Table(_ name: String = "", schema schemaName: String = "") =
    #externalMacro(module: "CairnMacros", type: "TableMacro")

/// Customizes a column of a `@Table` or `@Selection`: its SQL name, its stored
/// representation (`as: Date.UnixTimeRepresentation.self`, `UUID.BytesRepresentation.self`,
/// `[String].JSONRepresentation.self`), that it is the primary key, or that the database
/// generates it.
///
/// ```swift
/// @Column("due_at", as: Date.UnixTimeRepresentation?.self) var dueDate: Date?
/// ```
///
/// On a property whose type is a `@Selection` row (a column group), `primaryKey: true` makes
/// the group's columns together the table's primary key; a group named `id` is the key
/// without it:
///
/// ```swift
/// @Table struct Enrollment {
///     @Selection struct ID: Hashable { let courseID: Int; let studentID: Int }
///     let id: ID
///     var grade: String?
/// }
/// Enrollment.find(Enrollment.ID(courseID: 42, studentID: 1729))
/// // SELECT … FROM "enrollments" WHERE ("enrollments"."courseID", "enrollments"."studentID") = (?, ?)
/// ```
///
/// A generated column (`GENERATED ALWAYS AS (…) VIRTUAL` or `STORED` in the table's
/// `CREATE TABLE`) is read like any other and never written: it is left out of `INSERT`s,
/// upserts, whole-row `UPDATE`s and the `Draft`.
///
/// ```swift
/// @Table struct Reminder {
///     let id: Int
///     var title = ""
///     var dueDate: Date?
///     @Column(generated: .virtual) let isScheduled: Bool  // AS ("dueDate" IS NOT NULL) VIRTUAL
/// }
/// Reminder.insert { Reminder.Draft(title: "Milk") }
/// // INSERT INTO "reminders" ("id", "title", "dueDate") VALUES (?, ?, ?)
/// ```
///
/// `lazyInitializable: true` makes the column optional in the `Draft`, like the key, so that
/// the database can fill it in: a default (`NOT NULL ON CONFLICT REPLACE DEFAULT …`), a
/// trigger, or a foreign key set once the parent row exists. A table with such a column has a
/// `Draft` even without a primary key. `false` is the same as leaving it out.
///
/// ```swift
/// @Table struct User {
///     let id: UUID
///     var name = ""
///     @Column(lazyInitializable: true) let createdAt: Date
/// }
/// User.insert { User.Draft(name: "Blob") }
/// // INSERT INTO "users" ("id", "name", "createdAt") VALUES (?, ?, ?)  -- NULL, 'Blob', NULL
/// ```
@attached(peer)
public macro Column(
    _ name: String = "", as representableType: (any QueryBindable.Type)? = nil, primaryKey: Bool = false,
    generated: GeneratedColumnStorage? = nil, lazyInitializable: Bool? = nil
) = #externalMacro(module: "CairnMacros", type: "ColumnMacro")

/// StructuredQueries' older spelling of ``Column(_:as:primaryKey:generated:lazyInitializable:)``
/// for a column group, kept (deprecated, as there) so that
/// `@Columns(primaryKey: true) let id: Enrollment.ID` compiles: a composite primary key.
@available(*, deprecated, renamed: "Column")
@attached(peer)
public macro Columns(
    as representableType: (any QueryBindable.Type)? = nil, primaryKey: Bool = false, lazyInitializable: Bool? = nil
) = #externalMacro(module: "CairnMacros", type: "ColumnMacro")

/// How the database keeps a generated column (`@Column(generated:)`): computed when read
/// (`VIRTUAL`) or when the row is written (`STORED`). Cairn reads both alike and writes neither.
public enum GeneratedColumnStorage: Sendable {
    /// Computed when the row is read; takes no space.
    case virtual
    /// Computed when the row is written, and stored.
    case stored
}

/// A property of a `@Table` or `@Selection` that is not a column; it needs a default value,
/// which decoded rows keep.
@attached(peer)
public macro Ephemeral() = #externalMacro(module: "CairnMacros", type: "EphemeralMacro")

/// Makes a struct a custom result row, selected with its generated `Columns`:
///
/// ```swift
/// @Selection struct Stats { var allCount = 0; var flaggedCount = 0 }
/// Reminder.select {
///     Stats.Columns(allCount: $0.count(filter: !$0.isCompleted), flaggedCount: $0.count(filter: $0.isFlagged))
/// }
/// // SELECT COUNT("reminders"."id") FILTER (WHERE NOT "reminders"."isCompleted"),
/// //        COUNT("reminders"."id") FILTER (WHERE "reminders"."isFlagged") FROM "reminders"
/// ```
///
/// The row is also a ``Table`` (named as `@Table` names tables, or `@Selection("name")`), so
/// a common table expression selecting into it reads as one (see ``With(_:query:)``).
/// Written beside `@Table` (`@Table @Selection struct ReminderWithList { … }`), it adds
/// nothing: `@Table` writes the same `Columns`, and the row is a table as `@Table` makes one,
/// inserts included.
@attached(
    extension, conformances: SelectionRow, Table, BindableRow,
    names: named(Columns), named(TableColumns), named(columns), named(tableName), named(columnWidth),
    named(init(decoder:)), named(decode(from:)), named(databaseValues))
public macro Selection(_ name: String = "") = #externalMacro(module: "CairnMacros", type: "SelectionMacro")

/// Makes a Swift function callable from typed SQL: generates `$name`, to register with
/// `db.add(function:)` and call in queries with the function's own labels and defaults.
///
/// ```swift
/// @DatabaseFunction func exclaim(_ text: String) -> String { text + "!" }
///
/// db.add(function: $exclaim)
/// try Reminder.select { $exclaim($0.title) }.fetchAll(db)
/// // SELECT "exclaim"("reminders"."title") FROM "reminders"
/// ```
///
/// A function whose only parameter is a `some Sequence<…>` is an aggregate, run once per
/// group with the group's values (a sequence of tuples for several arguments):
///
/// ```swift
/// @DatabaseFunction func joined(_ titles: some Sequence<String>) -> String { titles.joined(separator: ", ") }
/// Reminder.group(by: \.remindersListID).select { $joined($0.title) }
/// // SELECT "joined"("reminders"."title") FROM "reminders" GROUP BY "reminders"."remindersListID"
/// ```
///
/// A parameter may be a whole `@Table` row (optional, or under an alias with `as:`), which SQL
/// passes as its columns:
///
/// ```swift
/// @DatabaseFunction func isPastDue(_ reminder: Reminder) -> Bool { … }
/// Reminder.where { $isPastDue($0) }
/// // … WHERE "isPastDue"("reminders"."id", …, "reminders"."title")
/// ```
///
/// The SQL name is the function's, or `name`; other parameters and the result must be types
/// SQL can hold (`QueryBindable`: `Int`, `String`, `Double`, `Bool`, `Date`, `UUID`, … and
/// optionals), or name a representation with `as:`. A computed property becomes a function of
/// no arguments, used as an expression (`Values($epoch)`). A throwing function fails the
/// statement with its error. Calls in a type's instance members capture `self`, so use global
/// or `static` functions unless the type is `Sendable`. The function must not be isolated to
/// the main actor (SQLite calls it on the thread that runs the statement): under default
/// main-actor isolation, declare it `nonisolated func`.
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction(_ name: String = "", isDeterministic: Bool = false) =
    #externalMacro(module: "CairnMacros", type: "DatabaseFunctionMacro")

/// `@DatabaseFunction` with the representations SQL passes and returns, for arguments or
/// results stored in another form than the Swift type (`@Column(as:)`).
///
/// ```swift
/// @DatabaseFunction(as: ((Date.UnixTimeRepresentation) -> Bool).self)
/// func isPastDue(_ date: Date) -> Bool { date < Date() }
/// Reminder.where { $isPastDue($0.dueDate) }   // dueDate: @Column(as: Date.UnixTimeRepresentation.self)
/// // … WHERE "isPastDue"("reminders"."dueDate")
/// ```
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<each T: QueryRepresentable, R: QueryBindable>(
    _ name: String = "", as representableFunctionType: ((repeat each T) -> R).Type, isDeterministic: Bool = false
) = #externalMacro(module: "CairnMacros", type: "DatabaseFunctionMacro")

/// `@DatabaseFunction` of a function that returns nothing, with the representations SQL passes.
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<each T: QueryRepresentable>(
    _ name: String = "", as representableFunctionType: ((repeat each T) -> Void).Type, isDeterministic: Bool = false
) = #externalMacro(module: "CairnMacros", type: "DatabaseFunctionMacro")

/// An aggregate `@DatabaseFunction` with the representations SQL passes and returns; the
/// sequence is spelled `any Sequence<…>` in the type literal.
///
/// ```swift
/// @DatabaseFunction(as: ((any Sequence<[String].JSONRepresentation>) -> [String].JSONRepresentation).self)
/// func jsonJoined(_ arrays: some Sequence<[String]>) -> [String] { arrays.flatMap(\.self) }
/// ```
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<each T: QueryRepresentable, R: QueryBindable>(
    _ name: String = "", as representableFunctionType: ((any Sequence<(repeat each T)>) -> R).Type,
    isDeterministic: Bool = false
) = #externalMacro(module: "CairnMacros", type: "DatabaseFunctionMacro")

/// An aggregate `@DatabaseFunction` that returns nothing, with the representations SQL passes.
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<each T: QueryRepresentable>(
    _ name: String = "", as representableFunctionType: ((any Sequence<(repeat each T)>) -> Void).Type,
    isDeterministic: Bool = false
) = #externalMacro(module: "CairnMacros", type: "DatabaseFunctionMacro")

/// `@DatabaseFunction` on a computed property, with the representation of its result.
///
/// ```swift
/// @DatabaseFunction("epoch", as: Date.UnixTimeRepresentation.self)
/// var seconds: Date { Date(timeIntervalSince1970: 0) }
/// Values($seconds)
/// // SELECT "epoch"()
/// ```
@attached(peer, names: prefixed(`$`))
public macro DatabaseFunction<R: QueryBindable>(
    _ name: String = "", as representableType: R.Type, isDeterministic: Bool = false
) = #externalMacro(module: "CairnMacros", type: "DatabaseFunctionMacro")

/// SQL written by hand, with interpolations that are bound (values), rendered (typed
/// expressions) or quoted (`\(Table.self)`); `raw:` alone is verbatim.
///
/// ```swift
/// let overdue = #sql("\(Reminder.columns.dueDate) < \(Date())", as: Bool.self)
/// // "reminders"."dueDate" < ?
/// ```
/// A Swift value as a bound query expression, with its representation given or inferred:
/// what a value of a column with a non-default representation needs, and what StructuredQueries
/// (from 0.31, Swift 6.3) asks for in updates.
///
/// ```swift
/// Reminder.where { $0.dueDate.lt(#bind(deadline, as: Date.UnixTimeRepresentation.self)) }
/// // … WHERE ("reminders"."dueDate" < ?)        -- the date as seconds since 1970
/// Reminder.find(1).update { $0.title = #bind("Milk") }
/// ```
@freestanding(expression)
public macro bind<QueryValue: QueryBindable>(
    _ queryValue: QueryValue.QueryOutput, as queryValueType: QueryValue.Type = QueryValue.self
) -> BindQueryExpression<QueryValue> = #externalMacro(module: "CairnMacros", type: "BindMacro")

/// The value `#bind` expands to: `?`, with the value in its representation among the
/// statement's arguments.
public struct BindQueryExpression<QueryValue: QueryBindable>: QueryExpression, Sendable {
    /// The bound value as SQL IR.
    public let sqlExpression: SQLExpression

    /// A value bound as a parameter, typed as `type`.
    public init(_ queryOutput: QueryValue.QueryOutput, as type: QueryValue.Type = QueryValue.self) {
        sqlExpression = QueryValue(queryOutput: queryOutput).sqlExpression
    }
}

/// Raw SQL as an expression of type `QueryValue`: interpolated expressions render as SQL,
/// interpolated values are bound, and `\(raw:)` text is written as it is.
///
/// ```swift
/// Reminder.where { #sql("\($0.priority) > \(bind: 1)", as: Bool.self) }
/// // SELECT … FROM "reminders" WHERE "reminders"."priority" > ?
/// ```
@freestanding(expression)
public macro sql<QueryValue>(
    _ queryFragment: QueryFragment, as queryValueType: QueryValue.Type = QueryValue.self
) -> SQLQueryExpression<QueryValue> = #externalMacro(module: "CairnMacros", type: "SQLMacro")

extension SQLExpression {
    /// Several result columns as one expression (`a, b, c`), for `@Selection` columns and
    /// whole tables used where one expression is expected.
    public static func selectionList(_ expressions: [SQLExpression]) -> SQLExpression {
        .raw(SQLFragment(segments: expressions.enumerated().flatMap { offset, expression in
            offset == 0 ? [.expression(expression)] : [.sql(", "), .expression(expression)]
        }))
    }
}
