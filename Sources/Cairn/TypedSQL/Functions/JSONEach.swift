// SQLite's `json_each` table-valued function over a JSON array or object column, spelled as
// StructuredQueries spells it: `$0.tags.jsonEach()` is a statement over the array's elements
// (or the object's members), to filter, select from, test with `exists()` or join, typically
// correlated with the row that holds the JSON.

/// The rows of SQLite's `json_each` over a JSON array: ``TableColumns/key``, the element's
/// index, and ``TableColumns/value``, the element; over a JSON object (a `[String: T]`
/// dictionary), the member's key and its value.
///
/// Statements of this table come from `jsonEach()` on a JSON expression; its columns
/// go by the function's name, `"json_each"."key"` and `"json_each"."value"`. An element that
/// is itself an object is JSON (`_CodableJSONRepresentation`), so `jsonExtract` reaches into it.
public struct JSONEach<Key: QueryBindable, Value: QueryBindable>: Table {
    /// The key of the element: its index in the array, or its key in the object.
    public let key: Key.QueryOutput
    /// The element.
    public let value: Value.QueryOutput

    /// `json_each`, the name SQLite gives the function's rows.
    public static var tableName: String { "json_each" }
    /// The function's two columns.
    public static var columns: TableColumns { TableColumns() }
    /// The key and the value.
    public static var columnWidth: Int { 2 }

    /// Reads the key, then the value.
    public static func decode(from decoder: inout QueryDecoder) throws -> JSONEach {
        let key = try decoder.decodeColumn(Key.self)
        return JSONEach(key: key, value: try decoder.decodeColumn(Value.self))
    }

    /// The columns of `json_each` that Cairn reads.
    public struct TableColumns: TableDefinition, Sendable {
        /// A row decodes as a ``JSONEach``.
        public typealias QueryValue = JSONEach

        /// The key of the element: `"json_each"."key"`.
        public var key: TableColumn<JSONEach, Key> { TableColumn("key", table: JSONEach.tableName) }
        /// The element: `"json_each"."value"`.
        public var value: TableColumn<JSONEach, Value> { TableColumn("value", table: JSONEach.tableName) }

        /// The key, then the value.
        public var allColumns: [any TableColumnExpression] { [key, value] }
    }

    /// `SELECT "json_each"."key", "json_each"."value" FROM json_each(arguments…)`.
    static func select(_ arguments: [SQLExpression]) -> SelectOf<JSONEach> {
        let source = SQLTableSource.function(tableName, arguments)
        return Select(query: SQLSelect(columns.selectedExpressions, from: source), isSelected: false, decode: nil)
    }
}

extension JSONEach: Sendable where Key.QueryOutput: Sendable, Value.QueryOutput: Sendable {}
extension JSONEach: Equatable where Key.QueryOutput: Equatable, Value.QueryOutput: Equatable {}
extension JSONEach: Hashable where Key.QueryOutput: Hashable, Value.QueryOutput: Hashable {}

extension QueryExpression where QueryValue: _JSONArrayDocument {
    /// `SELECT … FROM json_each(x)`: the elements of a JSON array column, as a statement.
    ///
    /// ```swift
    /// Post.where { $0.tags.jsonEach().where { $0.value.eq("swift") }.exists() }
    /// // SELECT … FROM "posts" WHERE EXISTS (SELECT "json_each"."key", "json_each"."value"
    /// //   FROM json_each("posts"."tags") WHERE "json_each"."value" = ?)
    /// Post.select { ($0.id, $0.tags.jsonEach().count()) }
    /// // SELECT "posts"."id", (SELECT COUNT(*) FROM json_each("posts"."tags")) FROM "posts"
    /// ```
    ///
    /// Elements are text, integers, `Bool`, `Double`, `Date` or `UUID` values (what
    /// `jsonExtract` reads back exactly); an array of `Codable` values (`[Link]`) has JSON
    /// elements, reached with `$0.value.jsonExtract(\.homepage)`.
    public func jsonEach() -> SelectOf<JSONEach<Int, QueryValue._JSONElement>>
    where QueryValue._JSONElement: _JSONExtractable & QueryBindable {
        JSONEach.select([sqlExpression])
    }

    /// `SELECT … FROM json_each(x)` over an array of `Codable` values: each element is JSON.
    ///
    /// ```swift
    /// Site.where { $0.links.jsonEach().where { $0.value.jsonExtract(\.homepage).like("%.org") }.exists() }
    /// // … WHERE EXISTS (SELECT "json_each"."key", "json_each"."value" FROM json_each("sites"."links")
    /// //   WHERE json_extract("json_each"."value", ?) LIKE ?)
    /// ```
    @_disfavoredOverload
    public func jsonEach() -> SelectOf<JSONEach<Int, _CodableJSONRepresentation<QueryValue._JSONElement>>> {
        JSONEach.select([sqlExpression])
    }
}

extension QueryExpression {
    /// `SELECT … FROM json_each(x)` over an optional JSON array column: a NULL column has no
    /// elements.
    public func jsonEach<Document: _JSONArrayDocument>() -> SelectOf<JSONEach<Int, Document._JSONElement>>
    where QueryValue == Document?, Document._JSONElement: _JSONExtractable & QueryBindable {
        JSONEach.select([sqlExpression])
    }

    /// `SELECT … FROM json_each(x)` over an optional JSON array of `Codable` values.
    @_disfavoredOverload
    public func jsonEach<Document: _JSONArrayDocument>()
        -> SelectOf<JSONEach<Int, _CodableJSONRepresentation<Document._JSONElement>>>
    where QueryValue == Document? {
        JSONEach.select([sqlExpression])
    }
}

extension QueryExpression where QueryValue: _JSONDocument {
    /// `SELECT … FROM json_each(x, path)`: the elements of the array at a key path.
    ///
    /// ```swift
    /// Profile.where { $0.author.jsonEach(\.tags).where { $0.value.eq("swift") }.exists() }
    /// // … WHERE EXISTS (SELECT "json_each"."key", "json_each"."value"
    /// //   FROM json_each("profiles"."author", ?) WHERE "json_each"."value" = ?)     ('$."tags"', 'swift')
    /// ```
    ///
    /// A path that leads nowhere (an absent optional member, a missing element) has no
    /// elements.
    public func jsonEach<Context, Member: _JSONArrayDocument>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>
    ) -> SelectOf<JSONEach<Int, Member._JSONElement>> where Member._JSONElement: _JSONExtractable & QueryBindable {
        JSONEach.select([sqlExpression, Self.bound(path)])
    }

    /// `SELECT … FROM json_each(x, path)` over an array of `Codable` values at a key path.
    @_disfavoredOverload
    public func jsonEach<Context, Member: _JSONArrayDocument>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>
    ) -> SelectOf<JSONEach<Int, _CodableJSONRepresentation<Member._JSONElement>>> {
        JSONEach.select([sqlExpression, Self.bound(path)])
    }
}
