// Table aliases, for statements that use one table twice (self-joins), spelled as
// StructuredQueries spells them: `enum Referrer: AliasName {}` and `User.as(Referrer.self)`.

/// A name a table can go by in a statement: conform an empty enum to it and pass it to
/// ``Table/as(_:)``.
///
/// ```swift
/// enum Referrer: AliasName {}
/// Referrer.aliasName  // "referrers"
/// ```
///
/// The default name is the type's name with a lowercase first letter, pluralized as `@Table`
/// names tables; implement `aliasName` to choose another.
public protocol AliasName {
    /// The name used in `AS "aliasName"` and to qualify the aliased table's columns.
    static var aliasName: String { get }
}

extension AliasName {
    /// The type's name with a lowercase first letter, pluralized (`Referrer` → `referrers`).
    public static var aliasName: String { TableNaming.pluralized(String(describing: Self.self)) }
}

extension Table {
    /// This table under another name, so a statement can use it twice.
    ///
    /// ```swift
    /// @Table struct User { let id: Int; var name = ""; var referrerID: Int? }
    /// enum Referrer: AliasName {}
    ///
    /// User.join(User.as(Referrer.self).all) { $0.referrerID.eq($1.id) }.select { ($0.name, $1.name) }
    /// // SELECT "users"."name", "referrers"."name" FROM "users"
    /// // JOIN "users" AS "referrers" ON "users"."referrerID" = "referrers"."id"
    /// ```
    public static func `as`<Name: AliasName>(_ aliasName: Name.Type) -> TableAlias<Self, Name>.Type {
        TableAlias<Self, Name>.self
    }
}

extension Select {
    /// This statement with its `FROM` source under another name: the source declares the
    /// alias, and every column of it, in every clause written so far, is qualified by it. Unlike
    /// ``Table/as(_:)``, it aliases a statement already built, so it serves a source that is
    /// not a table, such as `json_each`, which a statement can then join twice.
    ///
    /// ```swift
    /// enum First: AliasName {}
    /// enum Second: AliasName {}
    /// Item.join(Item.columns.tags.jsonEach().as(First.self)) { _, _ in true }
    ///     .join(Item.columns.tags.jsonEach().as(Second.self)) { $1.key < $2.key }
    ///     .select { ($0.title, $1.value, $2.value) }
    /// // SELECT "items"."title", "firsts"."value", "seconds"."value" FROM "items"
    /// // JOIN json_each("items"."tags") AS "firsts" ON ?
    /// // JOIN json_each("items"."tags") AS "seconds" ON "firsts"."key" < "seconds"."key"
    ///
    /// enum Urgent: AliasName {}
    /// Item.where { $0.tags.jsonEach().where { $0.value.eq("urgent") }.as(Urgent.self).exists() }
    /// // … WHERE EXISTS (SELECT "urgents"."key", "urgents"."value"
    /// //   FROM json_each("items"."tags") AS "urgents" WHERE "urgents"."value" = ?)
    /// ```
    ///
    /// On a statement over a table, the table goes by the alias, and the joined sources'
    /// arguments that read it do too: `Trip.join(Trip.columns.stops.jsonEach()) { _, _ in true }
    /// .as(Outer.self)` is `FROM "trips" AS "outers" JOIN json_each("outers"."stops") ON ?`.
    /// The table's default scope, when it applies, is part of the aliased statement.
    public func `as`<Name: AliasName>(_ alias: Name.Type) -> Select<Columns, TableAlias<From, Name>, Joins> {
        Select<Columns, TableAlias<From, Name>, Joins>(
            query: query.requalified(as: Name.aliasName), isSelected: isSelected, decode: decodeSelection)
    }
}

/// A table under an alias: ``Table/as(_:)`` returns this type. Its columns are qualified by
/// the alias, and its rows decode as the base table's rows.
///
/// ```swift
/// User.as(Referrer.self).where { $0.name.eq("Blob") }
/// // SELECT "referrers"."id", "referrers"."name", … FROM "users" AS "referrers" WHERE "referrers"."name" = ?
/// ```
///
/// Writes through an alias declare it, and return rows by bare column names (SQLite resolves
/// no alias in `RETURNING`):
///
/// ```swift
/// User.as(Referrer.self).where { $0.id.eq(1) }.delete().returning(\.name)
/// // DELETE FROM "users" AS "referrers" WHERE "referrers"."id" = ? RETURNING "name"
/// ```
public enum TableAlias<Base: Table, Name: AliasName>: Table {
    /// The Swift type a query returns for this value.
    public typealias QueryOutput = Base.QueryOutput

    /// The table's columns, as typed expressions.
    public static var columns: TableColumns { TableColumns() }
    /// The SQL table name.
    public static var tableName: String { Base.tableName }
    /// The schema that holds the table.
    public static var schemaName: String? { Base.schemaName }
    /// The alias the table goes by in statements.
    public static var tableAlias: String? { Name.aliasName }
    /// How many result columns the value takes.
    public static var columnWidth: Int { Base.columnWidth }

    /// Reads the value from the next result columns of a row.
    public static func decode(from decoder: inout QueryDecoder) throws -> Base.QueryOutput {
        try Base.decode(from: &decoder)
    }

    /// The base table's columns, qualified by the alias: `$1.name` is `"referrers"."name"`.
    @dynamicMemberLookup
    public struct TableColumns: TableDefinition, Sendable {
        /// The value type the expression stands for in SQL.
        public typealias QueryValue = TableAlias

        /// Every column, in declaration order.
        public var allColumns: [any TableColumnExpression] {
            Base.columns.allColumns.map { TableColumn<TableAlias, Never>($0.name, table: Name.aliasName) }
        }

        /// The base table's writable columns, in its order (the order its rows bind in).
        public var writableColumns: [any TableColumnExpression] {
            Base.columns.writableColumns.map { TableColumn<TableAlias, Never>($0.name, table: Name.aliasName) }
        }

        /// A column of the base table, qualified by the alias.
        public subscript<Value>(
            dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
        ) -> TableColumn<TableAlias, Value> {
            TableColumn(Base.columns[keyPath: keyPath].name, table: Name.aliasName)
        }

        /// A column group of the base table, its columns qualified by the alias.
        public subscript<Values>(
            dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Values>>
        ) -> ColumnGroup<TableAlias, Values> {
            ColumnGroup(Base.columns[keyPath: keyPath].name, table: Name.aliasName)
        }
    }
}

// An alias of a table whose key is one column has that key, qualified by the alias.
extension TableAlias.TableColumns: PrimaryKeyedTableDefinition
where Base.TableColumns: PrimaryKeyedTableDefinition, Base.TableColumns.PrimaryKey: QueryBindable,
    Base.TableColumns.PrimaryColumn == TableColumn<Base, Base.TableColumns.PrimaryKey> {
    /// The primary key's value type.
    public typealias PrimaryKey = Base.TableColumns.PrimaryKey

    /// The base table's primary key, qualified by the alias.
    public var primaryKey: TableColumn<TableAlias, Base.TableColumns.PrimaryKey> {
        TableColumn(Base.columns.primaryKey.name, table: Name.aliasName)
    }
}

/// The default names of tables and aliases: `RemindersList` → `remindersLists`,
/// `Category` → `categories`, `Box` → `boxes` (the rule `@Table` applies at compile time).
enum TableNaming {
    static func pluralized(_ typeName: String) -> String {
        guard let first = typeName.first else { return typeName }
        let base = first.lowercased() + typeName.dropFirst()
        let lower = base.lowercased()
        if lower.hasSuffix("y"), lower.count > 1,
            !"aeiou".contains(lower[lower.index(lower.endIndex, offsetBy: -2)])
        {
            return base.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return base + "es" }
        return base + "s"
    }
}
