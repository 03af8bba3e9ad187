// `json_each` over a JSON object: a `[String: T]` dictionary stored as
// `[String: T].JSONRepresentation`, whose rows are its members, keyed by their string keys, as
// StructuredQueries models dictionaries. SQLite gives the members in the order of the stored
// JSON text, which for a Swift dictionary is unspecified: order the statement to rely on one.

/// A JSON object column (`[String: T].JSONRepresentation`, not optional) whose members
/// `jsonEach()` iterates.
public protocol _JSONDictionaryDocument {
    /// The type of the dictionary's values.
    associatedtype _JSONValue: Codable
}

/// A dictionary keyed by `String`, the keys a JSON object has.
public protocol _StringKeyedDictionary {
    /// The dictionary's value type.
    associatedtype _DictionaryValue: Codable
}

extension Dictionary: _StringKeyedDictionary where Key == String, Value: Codable {
    public typealias _DictionaryValue = Value
}

extension _CodableJSONRepresentation: _JSONDictionaryDocument where Value: _StringKeyedDictionary {
    public typealias _JSONValue = Value._DictionaryValue
}

extension QueryExpression where QueryValue: _JSONDictionaryDocument {
    /// `SELECT … FROM json_each(x)`: the members of a JSON object column, its key and value.
    ///
    /// ```swift
    /// @Column(as: [String: Int].JSONRepresentation.self) var stock: [String: Int]
    ///
    /// Shop.where { $0.stock.jsonEach().where { $0.key.eq("apples") && $0.value.gt(0) }.exists() }
    /// // … WHERE EXISTS (SELECT "json_each"."key", "json_each"."value" FROM json_each("shops"."stock")
    /// //   WHERE "json_each"."key" = ? AND "json_each"."value" > ?)
    /// ```
    ///
    /// Values are text, integers, `Bool`, `Double`, `Date` or `UUID` (what `jsonExtract`
    /// reads back exactly); `Codable` values are JSON, reached with `$0.value.jsonExtract(\.x)`.
    public func jsonEach() -> SelectOf<JSONEach<String, QueryValue._JSONValue>>
    where QueryValue._JSONValue: _JSONExtractable & QueryBindable {
        JSONEach.select([sqlExpression])
    }

    /// `SELECT … FROM json_each(x)` over an object of `Codable` values: each value is JSON.
    @_disfavoredOverload
    public func jsonEach() -> SelectOf<JSONEach<String, _CodableJSONRepresentation<QueryValue._JSONValue>>> {
        JSONEach.select([sqlExpression])
    }
}

extension QueryExpression {
    /// `SELECT … FROM json_each(x)` over an optional JSON object column: a NULL column has no
    /// members.
    public func jsonEach<Document: _JSONDictionaryDocument>() -> SelectOf<JSONEach<String, Document._JSONValue>>
    where QueryValue == Document?, Document._JSONValue: _JSONExtractable & QueryBindable {
        JSONEach.select([sqlExpression])
    }

    /// `SELECT … FROM json_each(x)` over an optional JSON object of `Codable` values.
    @_disfavoredOverload
    public func jsonEach<Document: _JSONDictionaryDocument>()
        -> SelectOf<JSONEach<String, _CodableJSONRepresentation<Document._JSONValue>>>
    where QueryValue == Document? {
        JSONEach.select([sqlExpression])
    }
}

extension QueryExpression where QueryValue: _JSONDocument {
    /// `SELECT … FROM json_each(x, path)`: the members of the JSON object at a key path.
    ///
    /// ```swift
    /// Shop.select { $0.warehouse.jsonEach(\.stock).where { $0.value.gt(0) }.count() }
    /// // SELECT (SELECT COUNT(*) FROM json_each("shops"."warehouse", ?) WHERE "json_each"."value" > ?)
    /// // FROM "shops"                                                              ('$."stock"', 0)
    /// ```
    ///
    /// A path that leads nowhere (an absent optional member, a missing element) has no members.
    public func jsonEach<Context, Member: _JSONDictionaryDocument>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>
    ) -> SelectOf<JSONEach<String, Member._JSONValue>> where Member._JSONValue: _JSONExtractable & QueryBindable {
        JSONEach.select([sqlExpression, Self.bound(path)])
    }

    /// `SELECT … FROM json_each(x, path)` over an object of `Codable` values at a key path.
    @_disfavoredOverload
    public func jsonEach<Context, Member: _JSONDictionaryDocument>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>
    ) -> SelectOf<JSONEach<String, _CodableJSONRepresentation<Member._JSONValue>>> {
        JSONEach.select([sqlExpression, Self.bound(path)])
    }
}
