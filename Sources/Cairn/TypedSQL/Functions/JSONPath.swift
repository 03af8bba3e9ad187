import Foundation

// Swift key paths as SQLite JSON paths, for `jsonExtract(\.name)`, `jsonSet(\.links.homepage, …)`
// and the other functions of JSONKeyPathFunctions.swift, as StructuredQueries maps them.
//
// A key path is written against `JSONPath`, never against the Swift type itself: Swift gives no
// public way to learn a stored property's name from a `KeyPath<Author, String>`. `JSONPath`
// reaches the members of a `@Table` struct through its `TableColumns`, whose columns know their
// names, and the elements of an array by index. So every key path that compiles names a column
// or an index, and one that does not is a compile error naming the member; there is no key
// path that could turn into a wrong JSON path.
//
// The JSON key of a member is its column name: a struct whose `CodingKeys` differ from its
// column names (`@Column("is_verified")` with a different coding key) must keep them in step,
// or the path reads a key the JSON does not have (NULL).

/// A path into a JSON value stored in a column, built by a key path: `\.links.homepage` is the
/// JSON path `$."links"."homepage"`, `\.pastLinks[0]` is `$."pastLinks"[0]`, `\.tags[-1]` is
/// `$."tags"[#-1]` (the last element).
///
/// `Context` records whether the path can lead nowhere (it passed through an optional value,
/// so the result is optional) and whether its last step is an array element; `QueryValue` is
/// the type at the end of the path, as the column that holds it would store it.
@dynamicMemberLookup
public struct JSONPath<Context, QueryValue>: Sendable {
    let components: [String]

    /// The SQLite JSON path text, bound as a value.
    var pathString: String { "$" + components.joined() }

    init(components: [String] = []) { self.components = components }

    /// A member of a JSON object whose type is a `@Table` struct.
    public subscript<Member>(
        dynamicMember keyPath: KeyPath<QueryValue._Object.TableColumns, TableColumn<QueryValue._Object, Member>>
    ) -> JSONPath<Context._AfterMember, Member>
    where QueryValue: _JSONObjectValue, Context: _JSONPathContext {
        JSONPath<Context._AfterMember, Member>(
            components: components + [Self.member(QueryValue._Object.columns[keyPath: keyPath].name)])
    }

    /// A member of an optional JSON object: the path may lead nowhere.
    public subscript<Member>(
        dynamicMember keyPath: KeyPath<
            QueryValue._WrappedObject.TableColumns, TableColumn<QueryValue._WrappedObject, Member>>
    ) -> JSONPath<_JSONPathOptional, Member> where QueryValue: _OptionalJSONObjectValue {
        JSONPath<_JSONPathOptional, Member>(
            components: components + [Self.member(QueryValue._WrappedObject.columns[keyPath: keyPath].name)])
    }

    /// An element of a JSON array of values stored as plain columns (text, numbers…); a
    /// negative index counts from the end (`-1` is the last element).
    public subscript(_ index: Int) -> JSONPath<Context._AfterElement, QueryValue._JSONElement>
    where QueryValue: _JSONArrayDocument, QueryValue._JSONElement: QueryBindable, Context: _JSONPathContext {
        JSONPath<Context._AfterElement, QueryValue._JSONElement>(components: components + [Self.index(index)])
    }

    /// An element of a JSON array of `Codable` values, itself JSON.
    @_disfavoredOverload
    public subscript(
        _ index: Int
    ) -> JSONPath<Context._AfterElement, _CodableJSONRepresentation<QueryValue._JSONElement>>
    where QueryValue: _JSONArrayDocument, Context: _JSONPathContext {
        JSONPath<Context._AfterElement, _CodableJSONRepresentation<QueryValue._JSONElement>>(
            components: components + [Self.index(index)])
    }

    /// `."name"`, the name quoted so that any column name is one JSON key.
    private static func member(_ name: String) -> String {
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return ".\"\(escaped)\""
    }

    private static func index(_ index: Int) -> String { index < 0 ? "[#\(index)]" : "[\(index)]" }
}

/// Where a ``JSONPath`` stands: at the root or a member (``_JSONPathMember``), at an array
/// element (``_JSONPathElement``), or past an optional value (``_JSONPathOptional``).
public protocol _JSONPathContext {
    /// The context after one more member.
    associatedtype _AfterMember
    /// The context after one more index.
    associatedtype _AfterElement
}

/// A path that always leads to a value: the root, or members of non-optional objects.
public enum _JSONPathMember: _JSONPathContext, _RequiredJSONPathContext {
    public typealias _AfterMember = _JSONPathMember
    public typealias _AfterElement = _JSONPathElement
}

/// A path whose last step is an array index (the element may be missing: NULL, as SQLite
/// answers, which a non-optional result reports as a decoding error).
public enum _JSONPathElement: _JSONPathContext, _RequiredJSONPathContext {
    public typealias _AfterMember = _JSONPathMember
    public typealias _AfterElement = _JSONPathElement
}

/// A path through an optional value: its result is optional.
public enum _JSONPathOptional: _JSONPathContext {
    public typealias _AfterMember = _JSONPathOptional
    public typealias _AfterElement = _JSONPathOptional
}

/// The contexts whose path leads to a value when the document has the Swift type's shape.
public protocol _RequiredJSONPathContext {}

/// A JSON object whose members a key path can name: `T.JSONRepresentation` of a `@Table`
/// struct that is `Codable`.
public protocol _JSONObjectValue {
    /// The `@Table` type whose columns name the object's keys.
    associatedtype _Object: Table
}

extension _CodableJSONRepresentation: _JSONObjectValue where Value: Table {
    public typealias _Object = Value
}

/// An optional JSON object (`T.JSONRepresentation?` of a `@Table` struct): its members are
/// reached through a path that may lead nowhere.
public protocol _OptionalJSONObjectValue {
    /// The `@Table` type whose columns name the object's keys.
    associatedtype _WrappedObject: Table
}

extension Optional: _OptionalJSONObjectValue where Wrapped: _JSONObjectValue {
    public typealias _WrappedObject = Wrapped._Object
}

/// A JSON array column (`[T].JSONRepresentation`, not optional) whose elements an index
/// reaches.
public protocol _JSONArrayDocument {
    /// The element type.
    associatedtype _JSONElement: Codable
}

extension _CodableJSONRepresentation: _JSONArrayDocument where Value: RangeReplaceableCollection, Value.Element: Codable {
    public typealias _JSONElement = Value.Element
}
