// SQLite's `json_each` table-valued function over a JSON array or object column, spelled as
// StructuredQueries spells it: `$0.tags.jsonEach()` is a statement over the array's elements
// (or the object's members), to filter, select from, test with `exists()` or join, typically
// correlated with the row that holds the JSON.
//
// One set of `jsonEach` functions serves arrays and objects, columns and members at a key path,
// optional or not: the document type (`_JSONEachDocument`) says what the rows' keys and values
// are and how `json_each` reaches it. A dictionary is keyed by `String`, as StructuredQueries
// models dictionaries; SQLite gives an object's members in the order of the stored JSON text,
// which for a Swift dictionary is unspecified, so order the statement to rely on one.

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

/// A JSON document `jsonEach` iterates: `[T].JSONRepresentation` (rows keyed by index) or
/// `[String: T].JSONRepresentation` (rows keyed by member name), or an optional one.
public protocol _JSONEachDocument {
    /// `Int` for an array's index, `String` for an object's member name.
    associatedtype _JSONEachKey: QueryBindable
    /// The type of the elements (or member values).
    associatedtype _JSONEachValue: Codable

    /// The arguments of `json_each` over this document at `path` inside `document`.
    static func _jsonEachArguments(_ document: SQLExpression, at path: SQLExpression) -> [SQLExpression]
}

extension _JSONEachDocument {
    /// `json_each(document, path)`: a path that leads nowhere has no rows.
    public static func _jsonEachArguments(_ document: SQLExpression, at path: SQLExpression) -> [SQLExpression] {
        [document, path]
    }
}

/// A Swift collection whose JSON `json_each` iterates: an array, or a dictionary keyed by
/// `String` (the keys a JSON object has).
public protocol _JSONEachCollection {
    /// `Int` for an array, `String` for a dictionary.
    associatedtype _JSONEachKey: QueryBindable
    /// The element (or value) type.
    associatedtype _JSONEachValue: Codable
}

extension Array: _JSONEachCollection where Element: Codable {
    public typealias _JSONEachKey = Int
    public typealias _JSONEachValue = Element
}

extension ContiguousArray: _JSONEachCollection where Element: Codable {
    public typealias _JSONEachKey = Int
    public typealias _JSONEachValue = Element
}

extension Dictionary: _JSONEachCollection where Key == String, Value: Codable {
    public typealias _JSONEachKey = String
    public typealias _JSONEachValue = Value
}

extension _CodableJSONRepresentation: _JSONEachDocument where Value: _JSONEachCollection {
    public typealias _JSONEachKey = Value._JSONEachKey
    public typealias _JSONEachValue = Value._JSONEachValue
}

extension Optional: _JSONEachDocument where Wrapped: _JSONEachDocument {
    public typealias _JSONEachKey = Wrapped._JSONEachKey
    public typealias _JSONEachValue = Wrapped._JSONEachValue

    /// `json_each(json_extract(document, path))`: an optional member may be JSON `null`, over
    /// which `json_each(document, path)` would give one row (the `null` itself); extracted, it
    /// is SQL NULL, which has no rows, as an absent member has none.
    public static func _jsonEachArguments(_ document: SQLExpression, at path: SQLExpression) -> [SQLExpression] {
        [.function("json_extract", document, path)]
    }
}

extension QueryExpression where QueryValue: _JSONEachDocument {
    /// `SELECT … FROM json_each(x)`: the elements of a JSON array column (keyed by index), or
    /// the members of a JSON object column (keyed by name), as a statement.
    ///
    /// ```swift
    /// Post.where { $0.tags.jsonEach().where { $0.value.eq("swift") }.exists() }
    /// // SELECT … FROM "posts" WHERE EXISTS (SELECT "json_each"."key", "json_each"."value"
    /// //   FROM json_each("posts"."tags") WHERE "json_each"."value" = ?)
    /// Post.select { ($0.id, $0.tags.jsonEach().count()) }
    /// // SELECT "posts"."id", (SELECT COUNT(*) FROM json_each("posts"."tags")) FROM "posts"
    ///
    /// @Column(as: [String: Int].JSONRepresentation.self) var stock: [String: Int]
    /// Shop.where { $0.stock.jsonEach().where { $0.key.eq("apples") && $0.value.gt(0) }.exists() }
    /// // … WHERE EXISTS (SELECT "json_each"."key", "json_each"."value" FROM json_each("shops"."stock")
    /// //   WHERE "json_each"."key" = ? AND "json_each"."value" > ?)
    /// ```
    ///
    /// Elements are text, integers, `Bool`, `Double`, `Date` or `UUID` values (what
    /// `jsonExtract` reads back exactly); `Codable` values (`[Link]`) are JSON, reached with
    /// `$0.value.jsonExtract(\.homepage)`. An optional column that is NULL has no rows.
    public func jsonEach() -> SelectOf<JSONEach<QueryValue._JSONEachKey, QueryValue._JSONEachValue>>
    where QueryValue._JSONEachValue: _JSONExtractable & QueryBindable {
        JSONEach.select([sqlExpression])
    }

    /// `SELECT … FROM json_each(x)` over an array or object of `Codable` values: each value is
    /// JSON.
    ///
    /// ```swift
    /// Site.where { $0.links.jsonEach().where { $0.value.jsonExtract(\.homepage).like("%.org") }.exists() }
    /// // … WHERE EXISTS (SELECT "json_each"."key", "json_each"."value" FROM json_each("sites"."links")
    /// //   WHERE json_extract("json_each"."value", ?) LIKE ?)
    /// ```
    @_disfavoredOverload
    public func jsonEach()
        -> SelectOf<JSONEach<QueryValue._JSONEachKey, _CodableJSONRepresentation<QueryValue._JSONEachValue>>> {
        JSONEach.select([sqlExpression])
    }
}

extension QueryExpression where QueryValue: _JSONDocument {
    /// `SELECT … FROM json_each(x, path)`: the elements (or members) of the array (or object)
    /// at a key path.
    ///
    /// ```swift
    /// Profile.where { $0.author.jsonEach(\.tags).where { $0.value.eq("swift") }.exists() }
    /// // … WHERE EXISTS (SELECT "json_each"."key", "json_each"."value"
    /// //   FROM json_each("profiles"."author", ?) WHERE "json_each"."value" = ?)     ('$."tags"', 'swift')
    /// ```
    ///
    /// A path that leads nowhere (through an absent optional object, to a missing element) has
    /// no rows. An optional member (`[String]?`) is extracted first, so that a member that is
    /// absent or JSON `null` has none: `json_each(json_extract("profiles"."author", ?))`.
    public func jsonEach<Context, Member: _JSONEachDocument>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>
    ) -> SelectOf<JSONEach<Member._JSONEachKey, Member._JSONEachValue>>
    where Member._JSONEachValue: _JSONExtractable & QueryBindable {
        JSONEach.select(Member._jsonEachArguments(sqlExpression, at: Self.bound(path)))
    }

    /// `SELECT … FROM json_each(x, path)` over an array or object of `Codable` values at a key
    /// path.
    @_disfavoredOverload
    public func jsonEach<Context, Member: _JSONEachDocument>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>
    ) -> SelectOf<JSONEach<Member._JSONEachKey, _CodableJSONRepresentation<Member._JSONEachValue>>> {
        JSONEach.select(Member._jsonEachArguments(sqlExpression, at: Self.bound(path)))
    }
}
