// Static shortcuts: `Reminder.where { … }` is `Reminder.all.where { … }`, and so on.

extension Table {
    /// `Self.all.where { … }`
    ///
    /// ```swift
    /// Reminder.where { !$0.isCompleted }
    /// // SELECT … FROM "reminders" WHERE NOT "reminders"."isCompleted"
    /// ```
    public static func `where`<Condition: QueryExpression>(
        _ predicate: (TableColumns) -> Condition
    ) -> SelectOf<Self> where Condition.QueryValue: _BooleanValue {
        scoped.where(predicate)
    }

    /// `Self.all.where { if … { … }; for … { … } }` (``ConditionBuilder``).
    @_disfavoredOverload
    public static func `where`(@ConditionBuilder _ conditions: (TableColumns) -> [SQLExpression]) -> SelectOf<Self> {
        scoped.where(conditions)
    }

    /// `Self.all.where(\.flag)`
    public static func `where`<Condition: QueryExpression>(
        _ keyPath: KeyPath<TableColumns, Condition>
    ) -> SelectOf<Self> where Condition.QueryValue: _BooleanValue {
        scoped.where(keyPath)
    }

    /// `Self.all.select(\.column)`
    public static func select<C: QueryExpression>(
        _ keyPath: KeyPath<TableColumns, C>
    ) -> Select<C.QueryValue.QueryOutput, Self, ()> where C.QueryValue: QueryRepresentable {
        scoped.select(keyPath)
    }

    /// `Self.all.order(by: \.key)`
    public static func order(by keyPath: KeyPath<TableColumns, some QueryOrderingTerm>) -> SelectOf<Self> {
        scoped.order(by: keyPath)
    }

    /// `Self.all.order { … }` (``OrderingBuilder``)
    public static func order(@OrderingBuilder by ordering: (TableColumns) -> [SQLOrderingTerm]) -> SelectOf<Self> {
        scoped.order(by: ordering)
    }

    /// `Self.all.group(by: \.key)`
    public static func group(by keyPath: KeyPath<TableColumns, some QueryExpression>) -> SelectOf<Self> {
        scoped.group(by: keyPath)
    }

    /// `Self.all.group { … }` with one key.
    public static func group<Key: QueryExpression>(by grouping: (TableColumns) -> Key) -> SelectOf<Self> {
        scoped.group(by: grouping)
    }

    /// `Self.all.group { … }`
    public static func group<each Key: QueryExpression>(
        by grouping: (TableColumns) -> (repeat each Key)
    ) -> SelectOf<Self> {
        scoped.group(by: grouping)
    }

    /// `Self.all.having { … }`
    public static func having<Condition: QueryExpression>(
        _ predicate: (TableColumns) -> Condition
    ) -> SelectOf<Self> where Condition.QueryValue: _BooleanValue {
        scoped.having(predicate)
    }

    /// `Self.all.select { … }`
    public static func select<C: QueryExpression>(
        _ selection: (TableColumns) -> C
    ) -> Select<C.QueryValue.QueryOutput, Self, ()> where C.QueryValue: QueryRepresentable {
        scoped.select(selection)
    }

    /// `Self.all.select { (…, …) }`
    public static func select<each C: QueryExpression>(
        _ selection: (TableColumns) -> (repeat each C)
    ) -> Select<(repeat (each C).QueryValue.QueryOutput), Self, ()>
    where repeat (each C).QueryValue: QueryRepresentable {
        scoped.select(selection)
    }

    /// `Self.all.distinct()`
    public static func distinct(_ isDistinct: Bool = true) -> SelectOf<Self> {
        scoped.distinct(isDistinct)
    }

    /// `SELECT COUNT(*) FROM table`: the seed's `Fact.count()`.
    ///
    /// ```swift
    /// Fact.count()  // SELECT COUNT(*) FROM "facts"
    /// ```
    public static func count() -> Select<Int, Self, ()> {
        scoped.count()
    }

    /// `Self.all.exists()`: `EXISTS (SELECT … FROM table)`.
    public static func exists() -> SQLQueryExpression<Bool> {
        scoped.exists()
    }
}

extension PrimaryKeyedTable {
    /// `Self.all.find(key)`
    @inlinable
    public static func find(_ key: TableColumns.PrimaryKey.QueryOutput) -> SelectOf<Self> {
        guard let lookup = KeyLookup(Self.self, key) else { return scoped.find(key) }
        return Select(lookup: lookup)
    }

    /// `Self.all.find(keys)`
    public static func find(_ keys: some Sequence<TableColumns.PrimaryKey.QueryOutput>) -> SelectOf<Self> {
        scoped.find(keys)
    }

    /// `Self.all.find(expression)`
    @_disfavoredOverload
    public static func find<Key: QueryExpression>(_ key: Key) -> SelectOf<Self>
    where Key.QueryValue: QueryRepresentable, Key.QueryValue._Optionalized == TableColumns.PrimaryKey._Optionalized {
        scoped.find(key)
    }
}
