/// A `SELECT` statement over table `From`, joined to the tables in `Joins` (a tuple, `()`
/// when there is none), whose rows decode as `Columns` (`()` until `select` is called: then
/// a row is `(From, Joined…)`).
///
/// Built from ``Table/all`` and the static shortcuts on ``Table``; every method returns a new
/// statement. The statement is IR (``SQLSelect``); the SQL text depends only on its shape, so
/// the prepared statement is reused from the connection's cache.
///
/// ```swift
/// Reminder.where { !$0.isCompleted }.order(by: \.position).limit(10)
/// // SELECT "reminders"."id", … FROM "reminders"
/// // WHERE NOT ("reminders"."isCompleted") ORDER BY "reminders"."position" LIMIT ?
/// ```
///
/// A statement the table keeps as a static member chains on as if it were a member of the
/// statement (`Tag.order(by: \.title).withReminders`): see Select+Merging.swift.
@dynamicMemberLookup
public struct Select<Columns, From: Table, Joins>: Sendable {
    /// The clauses as written, before the table's default scope; `nil` for every row of
    /// `From` as it stands, which costs no lookup of the table's cached query until it is
    /// read or changed (``Table/all`` of a table without a scope of its own is read on
    /// every run of a statement begun from the table).
    @usableFromInline var written: SQLSelect?
    /// A primary-key lookup of every row of `From` (`Reminder.find(42)`), kept as its
    /// key until the statement is read as IR (``clauses``): run as it is, it is a
    /// template (``lookupTemplate``) whose SQL text depends only on the table.
    @usableFromInline var keyLookup: KeyLookup?
    /// Whether the table's default scope (the `WHERE` of its own ``Table/all``) applies: true
    /// for statements begun from the static shortcuts, false from ``Table/unscoped``.
    @usableFromInline let appliesDefaultScope: Bool
    /// Whether `select` chose the result columns.
    var isSelected: Bool
    /// Decodes a row of selected columns; `nil` until `select` is called.
    @usableFromInline let decodeSelection: (@Sendable (inout QueryDecoder) throws -> Columns)?

    init(
        query: SQLSelect, isSelected: Bool, decode: (@Sendable (inout QueryDecoder) throws -> Columns)?,
        appliesDefaultScope: Bool = false
    ) {
        self.written = query
        self.appliesDefaultScope = appliesDefaultScope
        self.isSelected = isSelected
        self.decodeSelection = decode
    }

    /// Every row of `From`, the base of the static shortcuts and of ``Table/all``.
    @usableFromInline init(everyRowOf _: From.Type, appliesDefaultScope: Bool) where Columns == (), Joins == () {
        self.written = nil
        self.appliesDefaultScope = appliesDefaultScope
        self.isSelected = false
        self.decodeSelection = nil
    }

    /// The row of `From` whose primary key `lookup` holds, with the table's default scope:
    /// ``PrimaryKeyedTable/find(_:)``, made whole rather than by copying a statement of every
    /// row and changing the copy.
    @usableFromInline init(lookup: KeyLookup) where Columns == (), Joins == () {
        self.written = nil
        self.keyLookup = lookup
        self.appliesDefaultScope = true
        self.isSelected = false
        self.decodeSelection = nil
    }

    /// The clauses as written, before the table's default scope; `columns` holds the selected
    /// (or all joined tables') columns.
    @usableFromInline var clauses: SQLSelect {
        get {
            if let keyLookup { return AllRowsQueries.query(for: From.self).where(keyLookup.condition) }
            return written ?? AllRowsQueries.query(for: From.self)
        }
        set {
            written = newValue
            keyLookup = nil
        }
    }

    /// The `WHERE` as written.
    @inlinable var writtenCondition: SQLExpression? { keyLookup?.condition ?? written?.condition }

    /// The lookup of ``keyLookup`` as a template, when the statement is nothing more: `nil`
    /// once anything else was added, or when the table's default scope applies (its `WHERE`
    /// may bind values of its own, which a template of the table could not know).
    @inlinable var lookupTemplate: SQLTemplate? {
        guard let keyLookup, !appliesDefaultScope || From.all.writtenCondition == nil else { return nil }
        return SQLTemplate(From.self, .primaryKeyLookup, values: keyLookup.keys, statement: keyLookup.statement)
    }

    /// The statement's clauses, with the table's default scope's `WHERE` first when it
    /// applies (see ``Table/all``).
    @inlinable public var query: SQLSelect {
        guard appliesDefaultScope, let scope = From.all.writtenCondition else { return clauses }
        return DefaultScope.apply(scope, to: clauses)
    }

    @usableFromInline func with(_ change: (inout SQLSelect) -> Void) -> Self {
        var copy = self
        change(&copy.clauses)
        return copy
    }
}

/// A lookup of one row by its primary key: the bound key, and the table's lookup statement,
/// which knows the key column. No expression is built until the lookup is read as IR.
@usableFromInline struct KeyLookup: Sendable {
    /// The key's values, bound: one, or one per column of a composite key.
    @usableFromInline let keys: [DatabaseValue]
    @usableFromInline let statement: any PrimaryKeyLookupStatement.Type

    @usableFromInline init(keys: [DatabaseValue], statement: any PrimaryKeyLookupStatement.Type) {
        self.keys = keys
        self.statement = statement
    }

    /// The lookup of `key` in `table`, bound as an insert binds the key column, so that a row
    /// is found by the value it was written with; `nil` when the key cannot be bound (a
    /// `UInt64` above `Int64.max`), which the caller then writes as a condition whose rendering
    /// throws, naming the value. Failing here keeps the lookup, which every `find` copies, as
    /// small as it was.
    @inlinable init?<T: PrimaryKeyedTable>(_ table: T.Type, _ key: T.TableColumns.PrimaryKey.QueryOutput) {
        guard let keys = try? T.columns.primaryKey._databaseValues(key) else { return nil }
        self.init(keys: keys, statement: PrimaryKeyLookupOf<T>.self)
    }

    /// `column = key`, or `(columns…) = (keys…)` for a composite key.
    @usableFromInline var condition: SQLExpression { statement.condition(keys.map(SQLExpression.value)) }
}

/// The statement of a lookup template: every column of the rows whose primary key equals
/// the one value.
@usableFromInline protocol PrimaryKeyLookupStatement: SQLTemplateStatement {
    /// The primary key, qualified by its table, equal to `keys`.
    static func condition(_ keys: [SQLExpression]) -> SQLExpression
}

/// ``PrimaryKeyLookupStatement`` of `From`.
@usableFromInline enum PrimaryKeyLookupOf<From: PrimaryKeyedTable>: PrimaryKeyLookupStatement {
    @usableFromInline static func condition(_ keys: [SQLExpression]) -> SQLExpression {
        let key = From.columns.primaryKey
        return key._writtenExpression.equals(key._operand(keys))
    }

    @usableFromInline static func statement(for _: SQLTemplate.Kind, _ expressions: [SQLExpression]) -> SQLStatement {
        .select(AllRowsQueries.query(for: From.self).where(condition(expressions)))
    }
}

/// A table's default scope joined to a statement's own conditions.
@usableFromInline enum DefaultScope {
    /// `scope AND condition`, unless the statement's conditions already begin with the scope's
    /// (a statement built on the table's own `all`, `Reminder.all.where { … }`).
    @usableFromInline static func apply(_ scope: SQLExpression, to clauses: SQLSelect) -> SQLSelect {
        guard let condition = clauses.condition else {
            var scoped = clauses
            scoped.condition = scope
            return scoped
        }
        if condition.conjuncts.starts(with: scope.conjuncts) { return clauses }
        var scoped = clauses
        scoped.condition = scope.and(condition)
        return scoped
    }
}

/// The statement for every row of a table: `Reminder.all`.
public typealias SelectOf<T: Table, each Join: Table> = Select<(), T, (repeat each Join)>

extension Table {
    /// Every row of the table: the default scope, which a table may declare for itself.
    ///
    /// ```swift
    /// RemindersList.all
    /// // SELECT "remindersLists"."id", "remindersLists"."title" FROM "remindersLists"
    /// ```
    ///
    /// A table that declares its own `all` gives every statement begun from it a default
    /// scope: selects, `find`, `count`, joins, and `update` and `delete` (its `WHERE`).
    /// ``unscoped`` leaves it out:
    ///
    /// ```swift
    /// @Table struct Reminder {
    ///     static let all = Self.where { !$0.isDeleted }
    ///     let id: Int
    ///     var isDeleted = false
    /// }
    /// Reminder.select(\.id)           // … FROM "reminders" WHERE NOT ("reminders"."isDeleted")
    /// Reminder.unscoped.select(\.id)  // … FROM "reminders"
    /// ```
    public static var all: SelectOf<Self> { scoped }

    /// Every row of the table, without its default scope.
    ///
    /// ```swift
    /// Reminder.unscoped.where { $0.isDeleted }.delete()
    /// // DELETE FROM "reminders" WHERE "reminders"."isDeleted"
    /// ```
    public static var unscoped: SelectOf<Self> {
        Select(everyRowOf: Self.self, appliesDefaultScope: false)
    }

    /// What the static shortcuts begin from: every row, with the default scope applied when
    /// the statement is run. Not `all` itself, which a table's own `all` written with a
    /// shortcut (`Self.where { … }`) would then read while it is being made.
    @inlinable static var scoped: SelectOf<Self> {
        Select(everyRowOf: Self.self, appliesDefaultScope: true)
    }

    /// The `WHERE` of the table's default scope, or `nil`.
    static var defaultScopeCondition: SQLExpression? { all.writtenCondition }

    /// No row of the table: a query to start a live value with before the real one is known
    /// (`@FetchAll(Tag.none) var tags`).
    ///
    /// ```swift
    /// Tag.none  // SELECT "tags"."id", "tags"."title" FROM "tags" WHERE ?   -- 0
    /// ```
    public static var none: SelectOf<Self> {
        scoped.with { $0 = $0.where(.value(.integer(0))) }
    }
}

/// `SELECT <every column> FROM <table>` of each table type, built once.
///
/// Nearly every statement starts from `all`, and building it (one named column expression per
/// column, through `any ColumnExpression`) then freeing it cost more than SQLite's work for a
/// primary-key lookup: about a fifth of `find(id).fetchOne(db)` (callgrind, W5). A table's
/// columns, name and alias are static, so the query is too; a cached one shares its column
/// array with every statement built from it.
@usableFromInline enum AllRowsQueries {
    private static let queries = TypeKeyedCache<SQLSelect>()

    @usableFromInline static func query<T: Table>(for type: T.Type) -> SQLSelect {
        queries.value(for: type) { SQLSelect(T.columns.selectedExpressions, from: .table(T.tableName, schema: T.schemaName, as: T.tableAlias)) }
    }
}

// MARK: - Filtering

/// The value type of a condition: `Bool` or `Bool?` (SQL's three-valued logic).
public protocol _BooleanValue {}
extension Bool: _BooleanValue {}
extension Optional: _BooleanValue where Wrapped == Bool {}

extension Select {
    /// Adds a `WHERE` condition; several calls are joined with `AND`. The closure receives
    /// the columns of every table in the statement.
    ///
    /// ```swift
    /// Reminder.where { $0.title.like("%milk%") }.where { !$0.isCompleted }
    /// // … WHERE "reminders"."title" LIKE ? AND NOT "reminders"."isCompleted"
    /// ```
    public func `where`<each J: Table, Condition: QueryExpression>(
        _ predicate: ((From.TableColumns, repeat (each J).TableColumns)) -> Condition
    ) -> Self where Joins == (repeat each J), Condition.QueryValue: _BooleanValue {
        let condition = predicate((From.columns, repeat (each J).columns)).sqlExpression
        return with { $0 = $0.where(condition) }
    }

    /// `WHERE …` from statements (``ConditionBuilder``), over every table of the statement.
    @_disfavoredOverload
    public func `where`<each J: Table>(
        @ConditionBuilder _ conditions: ((From.TableColumns, repeat (each J).TableColumns)) -> [SQLExpression]
    ) -> Self where Joins == (repeat each J) {
        guard let condition = ConditionBuilder.conjunction(conditions((From.columns, repeat (each J).columns))) else {
            return self
        }
        return with { $0 = $0.where(condition) }
    }

    /// Adds a `HAVING` condition (on groups); several calls are joined with `AND`.
    ///
    /// ```swift
    /// Tag.withReminders.having { $2.count().gt(0) }
    /// // … GROUP BY "tags"."id" HAVING COUNT("reminders"."id") > ?
    /// ```
    public func having<each J: Table, Condition: QueryExpression>(
        _ predicate: ((From.TableColumns, repeat (each J).TableColumns)) -> Condition
    ) -> Self where Joins == (repeat each J), Condition.QueryValue: _BooleanValue {
        let condition = predicate((From.columns, repeat (each J).columns)).sqlExpression
        return with { $0 = $0.having(condition) }
    }

    /// `SELECT DISTINCT` (or plain `SELECT` with `false`).
    public func distinct(_ isDistinct: Bool = true) -> Self {
        with { $0.isDistinct = isDistinct }
    }
}

// MARK: - Ordering and grouping

extension Select {
    /// Adds an ascending `ORDER BY` key named by a key path; several calls add keys.
    ///
    /// ```swift
    /// Counter.order(by: \.id)  // … ORDER BY "counters"."id"
    /// ```
    public func order(by keyPath: KeyPath<From.TableColumns, some QueryOrderingTerm>) -> Self {
        let term = From.columns[keyPath: keyPath].orderingTerm
        return with { $0.ordering.append(term) }
    }

    /// Adds `ORDER BY` keys from a closure (``OrderingBuilder``): an expression (ascending),
    /// `x.asc(nulls:)`, `x.desc(nulls:)`, a tuple of them, or `if`/`switch` choosing among
    /// them. Several calls add keys.
    ///
    /// ```swift
    /// Reminder.order { $0.dueDate.desc() }.order { $0.position }
    /// // … ORDER BY "reminders"."dueDate" DESC, "reminders"."position"
    /// ```
    public func order<each J: Table>(
        @OrderingBuilder by ordering: ((From.TableColumns, repeat (each J).TableColumns)) -> [SQLOrderingTerm]
    ) -> Self where Joins == (repeat each J) {
        let terms = ordering((From.columns, repeat (each J).columns))
        return with { $0.ordering += terms }
    }

    /// Adds a `GROUP BY` key named by a key path.
    ///
    /// ```swift
    /// RemindersList.group(by: \.id)  // … GROUP BY "remindersLists"."id"
    /// ```
    public func group(by keyPath: KeyPath<From.TableColumns, some QueryExpression>) -> Self {
        let key = From.columns[keyPath: keyPath].sqlExpression
        return with { $0.groupBy.append(key) }
    }

    /// Adds a `GROUP BY` key from a closure.
    public func group<each J: Table, Key: QueryExpression>(
        by grouping: ((From.TableColumns, repeat (each J).TableColumns)) -> Key
    ) -> Self where Joins == (repeat each J) {
        let key = grouping((From.columns, repeat (each J).columns)).sqlExpression
        return with { $0.groupBy.append(key) }
    }

    /// Adds `GROUP BY` keys from a closure (a tuple).
    public func group<each J: Table, each Key: QueryExpression>(
        by grouping: ((From.TableColumns, repeat (each J).TableColumns)) -> (repeat each Key)
    ) -> Self where Joins == (repeat each J) {
        let keys = grouping((From.columns, repeat (each J).columns))
        var list: [SQLExpression] = []
        for key in repeat each keys { list.append(key.sqlExpression) }
        return with { $0.groupBy += list }
    }
}

// MARK: - Selecting

extension Select {
    /// Chooses the result column: rows decode as the expression's value.
    ///
    /// ```swift
    /// Reminder.select { $0.title }  // SELECT "reminders"."title" FROM "reminders"
    /// Reminder.select { Stats.Columns(allCount: $0.count(), …) }
    /// ```
    public func select<each J: Table, C: QueryExpression>(
        _ selection: ((From.TableColumns, repeat (each J).TableColumns)) -> C
    ) -> Select<C.QueryValue.QueryOutput, From, Joins>
    where Columns == (), Joins == (repeat each J), C.QueryValue: QueryRepresentable {
        let column = selection((From.columns, repeat (each J).columns))
        var query = self.query
        query.columns = column.selectedExpressions.map { SQLSelectColumn($0) }
        return Select<C.QueryValue.QueryOutput, From, Joins>(
            query: query, isSelected: true, decode: { try C.QueryValue.decode(from: &$0) })
    }

    /// Chooses one column of the table, named by a key path.
    ///
    /// ```swift
    /// Reminder.where(\.isFlagged).select(\.title)
    /// // SELECT "reminders"."title" FROM "reminders" WHERE "reminders"."isFlagged"
    /// ```
    public func select<C: QueryExpression>(
        _ keyPath: KeyPath<From.TableColumns, C>
    ) -> Select<C.QueryValue.QueryOutput, From, ()>
    where Columns == (), Joins == (), C.QueryValue: QueryRepresentable {
        var query = self.query
        query.columns = From.columns[keyPath: keyPath].selectedExpressions.map { SQLSelectColumn($0) }
        return Select<C.QueryValue.QueryOutput, From, ()>(
            query: query, isSelected: true, decode: { try C.QueryValue.decode(from: &$0) })
    }

    /// Adds a `WHERE` condition named by a key path to a Boolean column or expression.
    ///
    /// ```swift
    /// Reminder.where(\.isFlagged)  // … WHERE "reminders"."isFlagged"
    /// ```
    public func `where`<Condition: QueryExpression>(
        _ keyPath: KeyPath<From.TableColumns, Condition>
    ) -> Self where Condition.QueryValue: _BooleanValue {
        let condition = From.columns[keyPath: keyPath].sqlExpression
        return with { $0 = $0.where(condition) }
    }

    /// Chooses several result columns: rows decode as a tuple.
    ///
    /// ```swift
    /// Reminder.select { ($0.title, $0.isCompleted) }
    /// // SELECT "reminders"."title", "reminders"."isCompleted" FROM "reminders"
    /// ```
    ///
    /// Disfavored: with one join, the fixed-arity overloads of 2 to 8 columns
    /// (Select+JoinedTupleOverloads.swift) decode faster, and neither form is more specific
    /// than the other to the type checker.
    @_disfavoredOverload
    public func select<each J: Table, each C: QueryExpression>(
        _ selection: ((From.TableColumns, repeat (each J).TableColumns)) -> (repeat each C)
    ) -> Select<(repeat (each C).QueryValue.QueryOutput), From, Joins>
    where Columns == (), Joins == (repeat each J), repeat (each C).QueryValue: QueryRepresentable {
        let columns = selection((From.columns, repeat (each J).columns))
        var expressions: [[SQLExpression]] = []
        for column in repeat each columns { expressions.append(column.selectedExpressions) }
        return selecting(expressions) { decoder in (repeat try (each C).QueryValue.decode(from: &decoder)) }
    }

    /// The statement selecting `expressions` (each selected column's, in order), its rows
    /// decoded by `decode`: what every tuple `select` shares, the variadic ones here and in
    /// Select+SingleTable.swift and the fixed-arity ones of Select+TupleOverloads.swift and
    /// Select+JoinedTupleOverloads.swift.
    @usableFromInline
    func selecting<Output>(
        _ expressions: [[SQLExpression]], decode: @escaping @Sendable (inout QueryDecoder) throws -> Output
    ) -> Select<Output, From, Joins> where Columns == () {
        var query = self.query
        query.columns = expressions.joined().map { SQLSelectColumn($0) }
        return Select<Output, From, Joins>(query: query, isSelected: true, decode: decode)
    }

    /// Selects `COUNT(*)` (of the filtered, joined rows).
    ///
    /// ```swift
    /// Fact.count()  // SELECT COUNT(*) FROM "facts"
    /// ```
    public func count() -> Select<Int, From, Joins> where Columns == () {
        var query = self.query
        query.columns = [SQLSelectColumn(.countAll)]
        return Select<Int, From, Joins>(query: query, isSelected: true, decode: { try $0.decode(Int.self) })
    }
}

// MARK: - Primary keys, subqueries and compounds

extension Select where From: PrimaryKeyedTable {
    /// Filters to the row with the given primary key.
    ///
    /// ```swift
    /// Reminder.find(42)  // … WHERE "reminders"."id" = ?
    /// ```
    @inlinable
    public func find(_ key: From.TableColumns.PrimaryKey.QueryOutput) -> Self {
        // On every row of the table, the lookup waits as its key (see `keyLookup`).
        if written == nil, keyLookup == nil, let keyLookup = KeyLookup(From.self, key) {
            var lookup = self
            lookup.keyLookup = keyLookup
            return lookup
        }
        let column = From.columns.primaryKey
        return with { $0 = $0.where(column._writtenExpression.equals(column._boundOperand(key))) }
    }

    /// Filters to the rows with any of the given primary keys (`pk IN (…)`; a composite key
    /// `("a", "b") IN ((?, ?), …)`).
    public func find(_ keys: some Sequence<From.TableColumns.PrimaryKey.QueryOutput>) -> Self {
        let column = From.columns.primaryKey
        let values = keys.map { column._boundOperand($0) }
        return with { $0 = $0.where(column._writtenExpression.in(values)) }
    }

    /// Filters to the row whose primary key equals an expression: a column of another table,
    /// a subquery, or a trigger's `new.id`.
    ///
    /// ```swift
    /// Reminder.find(new.id)  // … WHERE "reminders"."id" = "new"."id"
    /// ```
    @_disfavoredOverload
    public func find<Key: QueryExpression>(_ key: Key) -> Self
    where Key.QueryValue: QueryRepresentable,
        Key.QueryValue._Optionalized == From.TableColumns.PrimaryKey._Optionalized {
        let column = From.columns.primaryKey
        return with { $0 = $0.where(column._writtenExpression.equals(key.sqlExpression)) }
    }
}

extension Select {
    /// `EXISTS (SELECT …)`: whether the statement returns any row.
    ///
    /// ```swift
    /// Reminder.where { $0.isFlagged }.exists()  // EXISTS (SELECT … WHERE "reminders"."isFlagged")
    /// ```
    public func exists() -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.exists(query))
    }

    /// `UNION [ALL]` with another statement of the same row type.
    ///
    /// ```swift
    /// Reminder.where(\.isFlagged).union(Reminder.where(\.isCompleted))
    /// // SELECT … WHERE "reminders"."isFlagged" UNION SELECT … WHERE "reminders"."isCompleted"
    /// ```
    public func union(all: Bool = false, _ other: Self) -> Self {
        with { $0 = $0.union(all: all, other.query) }
    }

    /// `INTERSECT` with another statement of the same row type.
    public func intersect(_ other: Self) -> Self {
        with { $0 = $0.intersect(other.query) }
    }

    /// `EXCEPT` another statement of the same row type.
    public func except(_ other: Self) -> Self {
        with { $0 = $0.except(other.query) }
    }
}

extension Select where Columns: QueryRepresentable {
    /// `UNION [ALL]` with a statement over other tables that selects the same value or
    /// `@Selection` row: the seed and the step of a recursive common table expression.
    ///
    /// ```swift
    /// Values(Step.Columns(value: 1)).union(all: true, Step.select { Step.Columns(value: #sql("\($0.value) + 1")) })
    /// // SELECT ? UNION ALL SELECT "steps"."value" + 1 FROM "steps"
    /// ```
    public func union<OtherFrom, OtherJoins>(all: Bool = false, _ other: Select<Columns, OtherFrom, OtherJoins>) -> Self {
        with { $0 = $0.union(all: all, other.query) }
    }

    /// `INTERSECT` with a statement over other tables that selects the same row type.
    public func intersect<OtherFrom, OtherJoins>(_ other: Select<Columns, OtherFrom, OtherJoins>) -> Self {
        with { $0 = $0.intersect(other.query) }
    }

    /// `EXCEPT` a statement over other tables that selects the same row type.
    public func except<OtherFrom, OtherJoins>(_ other: Select<Columns, OtherFrom, OtherJoins>) -> Self {
        with { $0 = $0.except(other.query) }
    }
}

/// A statement that selects one value is an expression: a scalar subquery, `(SELECT …)`, in a
/// condition, a selection or an assignment (SQLite takes its first row, or `NULL`). Only a
/// stored value type qualifies: a whole row or a `@Selection` is several columns.
///
/// ```swift
/// Reminder.find(1).update { $0.position = Reminder.select { $0.position.max() ?? -1 } }
/// // UPDATE "reminders" SET "position" = (SELECT coalesce(MAX("reminders"."position"), ?) FROM "reminders") …
/// ```
extension Select: QueryExpression where Columns: QueryBindable {
    /// The selected value's type: the subquery's value.
    public typealias QueryValue = Columns

    /// The statement as a parenthesized subquery.
    public var sqlExpression: SQLExpression { .subquery(query) }
}
