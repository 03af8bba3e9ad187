import Foundation

// SQLite's JSON functions reaching into a JSON column by key path, spelled as StructuredQueries
// spells them: `jsonExtract(\.name)`, `jsonSet`, `jsonInsert`, `jsonReplace`, `jsonRemove`.
// The key path becomes a JSON path (JSONPath.swift), which is bound, never spliced.
//
// What comes back must read as the Swift type says. Cairn's JSON columns are written by
// Foundation's `JSONEncoder` with its default strategies; `json_extract` gives SQLite's value
// for what it finds (a JSON number as INTEGER or REAL, a string as TEXT, `true` as 1, an object
// or array as JSON text). The member types whose JSON form reads back that way are the ones
// `jsonExtract` accepts (`_JSONExtractable`); what is written goes through the same check
// (`JSONArrayElement`: text and integers, which SQLite writes exactly).

/// A member type `jsonExtract` reads back exactly: text, integers, `Bool` (JSON `true` is 1),
/// `Double` and `Date` (the text a `Date` column holds, as Cairn and StructuredQueries write
/// dates in JSON; a number reads as seconds since 2001), `UUID`
/// (uppercase text), a nested `Codable` value stored as JSON, or an optional of these. `Data`
/// (base64 in JSON, a BLOB in a column) and dates stored with other representations are not.
public protocol _JSONExtractable: QueryRepresentable {}

extension String: _JSONExtractable {}
extension Int: _JSONExtractable {}
extension Int8: _JSONExtractable {}
extension Int16: _JSONExtractable {}
extension Int32: _JSONExtractable {}
extension Int64: _JSONExtractable {}
extension UInt8: _JSONExtractable {}
extension UInt16: _JSONExtractable {}
extension UInt32: _JSONExtractable {}
extension Bool: _JSONExtractable {}
extension Double: _JSONExtractable {}
extension Date: _JSONExtractable {}
extension UUID: _JSONExtractable {}
extension _CodableJSONRepresentation: _JSONExtractable {}
extension Optional: _JSONExtractable where Wrapped: _JSONExtractable {}

/// A column holding a JSON document: `T.JSONRepresentation` for any `Codable` `T`.
public protocol _JSONDocument: QueryBindable {}

extension _CodableJSONRepresentation: _JSONDocument {}

extension QueryExpression where QueryValue: _JSONDocument {
    /// `json_extract(x, path)`: the value at a key path of a JSON column.
    ///
    /// ```swift
    /// @Table struct Link: Codable { var homepage: String }
    /// @Table struct Author: Codable {
    ///     var name: String
    ///     @Column(as: Link.JSONRepresentation.self) var links: Link
    ///     @Column(as: [Link].JSONRepresentation.self) var pastLinks: [Link]
    /// }
    /// @Table struct Profile { let id: Int; @Column(as: Author.JSONRepresentation.self) var author: Author }
    ///
    /// Profile.select { ($0.author.jsonExtract(\.name), $0.author.jsonExtract(\.pastLinks[0].homepage)) }
    /// // SELECT json_extract("profiles"."author", ?), json_extract("profiles"."author", ?)
    /// // FROM "profiles"                                ('$."name"', '$."pastLinks"[0]."homepage"')
    /// Profile.where { $0.author.jsonExtract(\.name).eq("Blob") }
    /// ```
    ///
    /// The object types are `@Table` structs (their columns name the JSON keys; see
    /// ``JSONPath``), nested objects and arrays are `@Column(as: ….JSONRepresentation.self)`
    /// members. A missing element (`\.tags[9]`) is NULL, which a non-optional result reports
    /// as a decoding error; a path through an optional object gives an optional result.
    public func jsonExtract<Context: _RequiredJSONPathContext, Member: _JSONExtractable>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>
    ) -> SQLQueryExpression<Member> {
        SQLQueryExpression(.function("json_extract", sqlExpression, Self.bound(path)))
    }

    /// `json_extract(x, path)` through an optional object: `nil` where the object is absent.
    public func jsonExtract<Member: _JSONExtractable>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<_JSONPathOptional, Member>>
    ) -> SQLQueryExpression<Member._Optionalized> {
        SQLQueryExpression(.function("json_extract", sqlExpression, Self.bound(path)))
    }

    /// `json_set(x, path, value)`: the document with the value at `path` set (created if the
    /// key is missing), to assign in an update.
    ///
    /// ```swift
    /// Profile.update { $0.author = $0.author.jsonSet(\.name, "Blob").jsonSet(\.links.homepage, "pointfree.co") }
    /// // UPDATE "profiles" SET "author" = json_set(json_set("profiles"."author", ?, ?), ?, ?)
    /// ```
    ///
    /// The value is text or an integer (``JSONArrayElement``), bound or read from a column.
    /// `Bool`, `Double` and `Date` members are not written this way: SQLite would store a
    /// `Bool` as 0 or 1, which does not decode as JSON `true`, and a real with 15 significant
    /// digits, which would not read back as the Swift value. StructuredQueries merges a chain
    /// into one `json_set` call; Cairn nests the calls, with the same result.
    public func jsonSet<Context: _RequiredJSONPathContext, Member: JSONArrayElement>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>,
        _ value: some QueryExpression<Member>
    ) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("json_set", sqlExpression, Self.bound(path), value.sqlExpression))
    }

    /// `json_set(x, path, json(value))`: a nested object or array set from a JSON value.
    ///
    /// ```swift
    /// Profile.update { $0.author = $0.author.jsonSet(\.links, Link(homepage: "example.com")) }
    /// // UPDATE "profiles" SET "author" = json_set("profiles"."author", ?, json(?))
    /// ```
    public func jsonSet<Context: _RequiredJSONPathContext, Member: _JSONDocument>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>,
        _ value: some QueryExpression<Member>
    ) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function(
            "json_set", sqlExpression, Self.bound(path), .function("json", value.sqlExpression)))
    }

    /// `json_set(x, path, json(?))`: a nested object or array set from a Swift value, bound as
    /// its JSON text.
    public func jsonSet<Context: _RequiredJSONPathContext, Member: _JSONDocument>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>,
        _ value: Member.QueryOutput
    ) -> SQLQueryExpression<QueryValue> {
        jsonSet(path, BindQueryExpression<Member>(value))
    }

    /// `json_insert(x, path, value)`: an optional member given a value where it has none.
    ///
    /// ```swift
    /// Profile.update { $0.author = $0.author.jsonInsert(\.nickname, "Blobby") }
    /// // UPDATE "profiles" SET "author" = json_insert("profiles"."author", ?, ?)
    /// ```
    ///
    /// A member that has a value keeps it. Text and integers only, as for `jsonSet`.
    public func jsonInsert<Wrapped: JSONArrayElement>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<_JSONPathMember, Wrapped?>>,
        _ value: some QueryExpression<Wrapped>
    ) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("json_insert", sqlExpression, Self.bound(path), value.sqlExpression))
    }

    /// `json_replace(x, path, value)`: an optional member's value replaced where it has one.
    ///
    /// ```swift
    /// Profile.update { $0.author = $0.author.jsonReplace(\.nickname, "Blobby") }
    /// // UPDATE "profiles" SET "author" = json_replace("profiles"."author", ?, ?)
    /// ```
    public func jsonReplace<Wrapped: JSONArrayElement>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<_JSONPathMember, Wrapped?>>,
        _ value: some QueryExpression<Wrapped>
    ) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("json_replace", sqlExpression, Self.bound(path), value.sqlExpression))
    }

    /// `json_replace(x, path, value)`: an array element replaced where the index exists.
    ///
    /// ```swift
    /// Post.update { $0.tags = $0.tags.jsonReplace(\.[0], "swift") }
    /// // UPDATE "posts" SET "tags" = json_replace("posts"."tags", ?, ?)        ('$[0]', 'swift')
    /// ```
    public func jsonReplace<Member: JSONArrayElement>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<_JSONPathElement, Member>>,
        _ value: some QueryExpression<Member>
    ) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("json_replace", sqlExpression, Self.bound(path), value.sqlExpression))
    }

    /// `json_remove(x, path)`: an optional member removed, so it decodes as `nil`.
    ///
    /// ```swift
    /// Profile.update { $0.author = $0.author.jsonRemove(\.nickname) }
    /// // UPDATE "profiles" SET "author" = json_remove("profiles"."author", ?)   ('$."nickname"')
    /// ```
    ///
    /// A non-optional member cannot be removed (the document would no longer decode): that
    /// is a compile error.
    public func jsonRemove<Wrapped>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<_JSONPathMember, Wrapped?>>
    ) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("json_remove", sqlExpression, Self.bound(path)))
    }

    /// `json_remove(x, path)`: an array element removed (the later ones move down).
    ///
    /// ```swift
    /// Post.update { $0.tags = $0.tags.jsonRemove(\.[-1]) }
    /// // UPDATE "posts" SET "tags" = json_remove("posts"."tags", ?)             ('$[#-1]')
    /// ```
    public func jsonRemove<Member>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<_JSONPathElement, Member>>
    ) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("json_remove", sqlExpression, Self.bound(path)))
    }

    /// `json_array_length(x, path)`: the number of elements of the array at a key path.
    ///
    /// ```swift
    /// Profile.select { $0.author.jsonArrayLength(\.pastLinks) }
    /// // SELECT json_array_length("profiles"."author", ?) FROM "profiles"       ('$."pastLinks"')
    /// ```
    ///
    /// The member is a `[T].JSONRepresentation` (an optional one gives `Int?`, `nil` where
    /// it is null). A missing array element on the way (`\.pastLinks[9].tags`) is NULL, which
    /// the non-optional result reports as a decoding error.
    public func jsonArrayLength<Context: _RequiredJSONPathContext, Member: _JSONArrayValue>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>
    ) -> SQLQueryExpression<Member._ArrayLength> {
        SQLQueryExpression(.function("json_array_length", sqlExpression, Self.bound(path)))
    }

    /// `json_array_length(x, path)` through an optional object: `nil` where it is absent.
    public func jsonArrayLength<Member: _JSONArrayValue>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<_JSONPathOptional, Member>>
    ) -> SQLQueryExpression<Int?> {
        SQLQueryExpression(.function("json_array_length", sqlExpression, Self.bound(path)))
    }

    /// `json_insert(x, 'path[#]', value)`: the document with `value` appended to the array at
    /// a key path, to assign in an update.
    ///
    /// ```swift
    /// Profile.update { $0.author = $0.author.jsonAppend(\.tags, "new") }
    /// // UPDATE "profiles" SET "author" = json_insert("profiles"."author", ?, ?)  ('$."tags"[#]', 'new')
    /// ```
    ///
    /// Text and integer elements, as for `jsonSet`; a whole `Codable` element is
    /// appended with `jsonAppend(\.pastLinks, Link(…))`. An optional array member (`[String]?`)
    /// that is `nil` (absent, or JSON `null`) stays `nil`, as `author.tags?.append("new")` leaves
    /// it in Swift and as SQLite's `json_insert` leaves it: no array is started.
    public func jsonAppend<Context: _RequiredJSONPathContext, Member: _JSONArrayValue, Element: JSONArrayElement>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>,
        _ value: some QueryExpression<Element>
    ) -> SQLQueryExpression<QueryValue> where Member._ArrayElement == Element.QueryOutput {
        SQLQueryExpression(.function("json_insert", sqlExpression, Self.bound(path, appending: "[#]"), value.sqlExpression))
    }

    /// `json_insert(x, 'path[#]', json(value))`: a `Codable` element (an object, an array)
    /// appended to the array at a key path.
    ///
    /// ```swift
    /// Profile.update { $0.author = $0.author.jsonAppend(\.pastLinks, Link(homepage: "example.org")) }
    /// // UPDATE "profiles" SET "author" = json_insert("profiles"."author", ?, json(?))
    /// ```
    @_disfavoredOverload
    public func jsonAppend<Context: _RequiredJSONPathContext, Member: _JSONArrayValue>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>,
        _ value: some QueryExpression<_CodableJSONRepresentation<Member._ArrayElement>>
    ) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function(
            "json_insert", sqlExpression, Self.bound(path, appending: "[#]"), .function("json", value.sqlExpression)))
    }

    /// `json_insert(x, 'path[#]', json(?))`: a `Codable` element appended, bound as its JSON
    /// text.
    @_disfavoredOverload
    public func jsonAppend<Context: _RequiredJSONPathContext, Member: _JSONArrayValue>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>,
        _ value: Member._ArrayElement
    ) -> SQLQueryExpression<QueryValue> {
        jsonAppend(path, BindQueryExpression<_CodableJSONRepresentation<Member._ArrayElement>>(value))
    }

    /// The key path's JSON path, bound; `[#]` after an array's path is the place past its end.
    static func bound<Context, Member>(
        _ path: KeyPath<JSONPath<_JSONPathMember, QueryValue>, JSONPath<Context, Member>>, appending suffix: String = ""
    ) -> SQLExpression {
        .value(.text(JSONPath<_JSONPathMember, QueryValue>()[keyPath: path].pathString + suffix))
    }
}

extension QueryExpression {
    /// `json_extract(x, path)` on an optional JSON column: `nil` where the column is NULL.
    ///
    /// ```swift
    /// Profile.select { $0.editor.jsonExtract(\.name) }   // editor: Author? → String?
    /// // SELECT json_extract("profiles"."editor", ?) FROM "profiles"              ('$."name"')
    /// ```
    public func jsonExtract<Document: _JSONDocument, Context, Member: _JSONExtractable>(
        _ path: KeyPath<JSONPath<_JSONPathOptional, Document>, JSONPath<Context, Member>>
    ) -> SQLQueryExpression<Member._Optionalized> where QueryValue == Document? {
        let text = JSONPath<_JSONPathOptional, Document>()[keyPath: path].pathString
        return SQLQueryExpression(.function("json_extract", sqlExpression, .value(.text(text))))
    }

    /// `json_array_length(x, path)` on an optional JSON column: `nil` where the column is NULL.
    ///
    /// ```swift
    /// Profile.select { $0.editor.jsonArrayLength(\.tags) }   // editor: Author? → Int?
    /// // SELECT json_array_length("profiles"."editor", ?) FROM "profiles"        ('$."tags"')
    /// ```
    public func jsonArrayLength<Document: _JSONDocument, Context, Member: _JSONArrayValue>(
        _ path: KeyPath<JSONPath<_JSONPathOptional, Document>, JSONPath<Context, Member>>
    ) -> SQLQueryExpression<Int?> where QueryValue == Document? {
        let text = JSONPath<_JSONPathOptional, Document>()[keyPath: path].pathString
        return SQLQueryExpression(.function("json_array_length", sqlExpression, .value(.text(text))))
    }
}
