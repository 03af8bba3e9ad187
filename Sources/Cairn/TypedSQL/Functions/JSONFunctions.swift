// SQLite's JSON functions on JSON-stored arrays (`@Column(as: [String].JSONRepresentation.self)`),
// spelled as StructuredQueries spells them: `jsonArrayLength()` and `jsonAppend(_:)`.
//
// Reaching into JSON objects by key path (`jsonExtract(\.name)`, `jsonSet`, `jsonRemove`…) is
// in JSONKeyPathFunctions.swift.

/// A stored value that is a JSON array: `[T].JSONRepresentation` (any `Codable` element), or an
/// optional one.
public protocol _JSONArrayValue: QueryRepresentable {
    /// The array's element type, as the application sees it (`String` for `[String]`).
    associatedtype _ArrayElement: Codable
    /// What `json_array_length` gives back: `Int`, or `Int?` for an optional array (NULL
    /// stays NULL).
    associatedtype _ArrayLength: QueryRepresentable
}

extension _CodableJSONRepresentation: _JSONArrayValue
where Value: RangeReplaceableCollection, Value.Element: Codable {
    public typealias _ArrayElement = Value.Element
    public typealias _ArrayLength = Int
}

extension Optional: _JSONArrayValue where Wrapped: _JSONArrayValue {
    public typealias _ArrayElement = Wrapped._ArrayElement
    public typealias _ArrayLength = Int?
}

extension QueryExpression where QueryValue: _JSONArrayValue {
    /// `json_array_length(x)`: the number of elements of a JSON array.
    ///
    /// ```swift
    /// @Table struct Post { let id: Int; @Column(as: [String].JSONRepresentation.self) var tags: [String] }
    ///
    /// Post.where { $0.tags.jsonArrayLength().gt(1) }.select { ($0.id, $0.tags.jsonArrayLength()) }
    /// // SELECT "posts"."id", json_array_length("posts"."tags") FROM "posts"
    /// // WHERE json_array_length("posts"."tags") > ?
    /// ```
    ///
    /// An empty array gives 0. On an optional column (`[String].JSONRepresentation?`) the
    /// result is `Int?`, `nil` for a NULL column; StructuredQueries offers the method on
    /// non-optional arrays only, so that form is Cairn's. It also counts an aggregate's array:
    /// `$1.title.jsonGroupArray().jsonArrayLength()`. Text that is not JSON makes the query
    /// throw SQLite's "malformed JSON".
    public func jsonArrayLength() -> SQLQueryExpression<QueryValue._ArrayLength> {
        SQLQueryExpression(.function("json_array_length", sqlExpression))
    }

    /// `json_insert(x, '$[#]', value)`: the JSON array with `value` appended, to assign in an
    /// update.
    ///
    /// ```swift
    /// Post.find(1).update { $0.tags = $0.tags.jsonAppend("swift") }
    /// // UPDATE "posts" SET "tags" = json_insert("posts"."tags", '$[#]', ?) WHERE …
    /// Post.update { $0.tags = $0.tags.jsonAppend("a").jsonAppend($0.title) }
    /// // … SET "tags" = json_insert(json_insert("posts"."tags", '$[#]', ?), '$[#]', "posts"."title")
    /// ```
    ///
    /// The element is bound (or read from a column) and stored as a JSON string or integer,
    /// so elements are text and integers only, as for ``jsonGroupArray(distinct:order:filter:)``:
    /// SQLite writes a real with 15 significant digits and a `Bool` as 0 or 1, which would not
    /// decode back as the Swift value. On an optional array column (Cairn only, as for
    /// ``jsonArrayLength()``), appending to NULL leaves it NULL, as SQLite's `json_insert` does.
    /// StructuredQueries merges a chain of appends into one `json_insert` call; Cairn nests
    /// them, with the same result.
    public func jsonAppend<Element: JSONArrayElement>(
        _ value: some QueryExpression<Element>
    ) -> SQLQueryExpression<QueryValue> where QueryValue._ArrayElement == Element.QueryOutput {
        SQLQueryExpression(.function("json_insert", sqlExpression, .raw(SQLFragment(sql: "'$[#]'")), value.sqlExpression))
    }
}
