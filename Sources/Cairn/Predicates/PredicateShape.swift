import Foundation

/// One part of a predicate's shape that its static type does not carry.
enum ShapeToken: Hashable, @unchecked Sendable {
    // @unchecked Sendable: `AnyKeyPath` is an immutable class (Swift key paths are values
    // in all but name); the token is only hashed and compared.

    /// The static type of the whole expression tree (it fixes every node's kind and types).
    case type(ObjectIdentifier)
    /// An operator (comparison, arithmetic) by a stable number.
    case op(Int)
    /// A key path.
    case keyPath(AnyKeyPath)
    /// A use of a variable, numbered by first appearance (variable IDs differ per predicate).
    case variable(Int)
    /// A variable's declaration (a closure's element).
    case declare(Int)
    /// The shape of a query another surface compiles (a Core Data fetch request's predicate
    /// and sort descriptors, in CairnCoreData). A key that holds one never equals a
    /// `FetchDescriptor`'s, whose tokens are all of the kinds above.
    case surface(SurfaceShape)

    /// A key path by its type (`KeyPath<Workout, Int>`) alone: hashing the key path itself
    /// walks its components, about 1,200 instructions a fetch (callgrind, W5), and every fetch
    /// hashes its shape to find its SQL. Equal key paths have the same type, so equal tokens
    /// still hash equal; `==` compares the key paths, identity first. (Numbered tokens of
    /// different kinds may share a hash too; a shape's static type already orders its tokens.)
    func hash(into hasher: inout Hasher) {
        switch self {
        case .type(let identifier): hasher.combine(identifier)
        case .keyPath(let keyPath): hasher.combine(ObjectIdentifier(Swift.type(of: keyPath)))
        case .op(let number), .variable(let number), .declare(let number): hasher.combine(number)
        case .surface(let shape): shape.shape.hash(into: &hasher)
        }
    }
}

/// What fixes the SQL of a query another surface compiles (CairnCoreData's fetch requests),
/// as that surface's own value, which Cairn keys its compiled SQL with. A class, compared
/// through ``isEqual(to:)``: a class existential is one reference that copies with a retain
/// and casts back without a copy, where `AnyHashable`'s generic box cost about 5,000
/// instructions a lookup (callgrind, Core Data W5).
package protocol SurfaceQueryShape: AnyObject, Sendable {
    /// Hashes what ``isEqual(to:)`` compares.
    func hash(into hasher: inout Hasher)
    /// Whether `other` is a shape of the same type that compiles to the same SQL.
    func isEqual(to other: any SurfaceQueryShape) -> Bool
}

/// A surface's shape in a ``ShapeToken``.
struct SurfaceShape: Hashable, Sendable {
    let shape: any SurfaceQueryShape

    static func == (lhs: SurfaceShape, rhs: SurfaceShape) -> Bool { lhs.shape.isEqual(to: rhs.shape) }
    func hash(into hasher: inout Hasher) { shape.hash(into: &hasher) }
}

/// The result of the shape walk: what identifies the compiled SQL, and the constant values to
/// bind.
struct PredicateShape {
    private(set) var tokens: [ShapeToken] = []
    /// Values of variable-free subtrees, in walk order.
    private(set) var constants: [Any] = []
    /// The variables declared so far; a variable's number is its position. The first (the
    /// predicate's input) is kept apart: most predicates declare no other, and the dictionary
    /// this replaces cost an allocation and hashing, about 1,000 instructions a fetch
    /// (callgrind, W5).
    private var firstVariable: PredicateExpressions.VariableID?
    private var laterVariables: [PredicateExpressions.VariableID] = []

    /// Walks `expression` (rooted at the predicate's variable `root`).
    init<E: SQLPredicateExpression>(_ expression: E, root: PredicateExpressions.VariableID) throws {
        tokens.reserveCapacity(8)
        tokens.append(.type(ObjectIdentifier(E.self)))
        declare(root)
        try visit(expression)
    }

    mutating func visit<E: SQLPredicateExpression>(_ expression: E) throws {
        if E.isVariableFree {
            do {
                constants.append(try expression.checkedEvaluate(PredicateBindings()))
            } catch {
                throw PredicateSQLError.unsupported(
                    "a constant part that fails to evaluate (\(error)); Cairn evaluates captured values before running the query")
            }
            return
        }
        try expression.collectShape(&self)
    }

    mutating func token(_ token: ShapeToken) {
        tokens.append(token)
    }

    mutating func declare(_ variable: PredicateExpressions.VariableID) {
        if firstVariable == nil {
            firstVariable = variable
            tokens.append(.declare(0))
        } else {
            laterVariables.append(variable)
            tokens.append(.declare(laterVariables.count))
        }
    }

    mutating func use(_ variable: PredicateExpressions.VariableID) throws {
        if let index = laterVariables.lastIndex(of: variable) {
            tokens.append(.variable(index + 1))
        } else if variable == firstVariable {
            tokens.append(.variable(0))
        } else {
            throw PredicateSQLError.unsupported("a variable that is not the predicate's input or a closure's element")
        }
    }
}

// MARK: - Binding constants

/// Turns a constant of a predicate into the value bound for it, with the store's encoding
/// (dates as seconds since 2001, UUIDs as lower-case text, enums by raw value, models by
/// primary key).
enum PredicateValues {
    static func databaseValue(_ value: Any) throws -> DatabaseValue {
        // The commonest captured types by their exact type first: a failed cast costs a few
        // hundred instructions, and an Int64 key failed two before it matched (about 1,000
        // instructions a fetch, callgrind, W5).
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(Int64.self): if let value = value as? Int64 { return .integer(value) }
        case ObjectIdentifier(Int.self): if let value = value as? Int { return .integer(Int64(value)) }
        case ObjectIdentifier(String.self): if let value = value as? String { return .text(value) }
        case ObjectIdentifier(Double.self): if let value = value as? Double { return .real(value) }
        default: break
        }
        // Then the other concrete types: a cast to a concrete type compares metadata, while
        // each protocol cast below (`any PersistentModel`, `any _OptionalMarker`) searches
        // conformances. Behind those, an Int64 key would fail nine casts first, about 8,000
        // instructions a fetch (callgrind, W5).
        switch value {
        case let value as String: return .text(value)
        case let value as Int: return .integer(Int64(value))
        case let value as Int64: return .integer(value)
        case let value as Double: return .real(value)
        case let value as Bool: return .integer(value ? 1 : 0)
        case let value as Date: return .real(value.timeIntervalSinceReferenceDate)
        case let value as Substring: return .text(String(value))
        case let value as Character: return .text(String(value))
        case let value as ComparisonResult: return .integer(Int64(value.rawValue))
        case let value as PersistentIdentifier: return value.primaryKey.map { .integer($0) } ?? .null
        case let value as any PersistentModel: return try databaseValue(value.persistentModelID)
        case let value as any _OptionalMarker:
            guard let wrapped = value._wrappedAny else { return .null }
            return try databaseValue(wrapped)
        case let value as any ColumnPrimitive:
            do {
                return try value.databaseValue()
            } catch {
                throw PredicateSQLError.unsupported("the value \(value), which cannot be stored (\(error))")
            }
        case let value as any RawRepresentable:
            return try databaseValue(value.rawValue)
        default:
            throw PredicateSQLError.unsupported(
                "a captured value of type \(type(of: value)); Cairn binds numbers, Bool, String, Date, Data, UUID, "
                    + "URL, Decimal, enums with raw values, models and PersistentIdentifier")
        }
    }

    /// The elements of a constant sequence, or `nil` if it is not a sequence.
    static func elements(_ value: Any) -> [Any]? {
        if let array = value as? any _ArrayMarker { return array._elementsAny }
        if let sequence = value as? any _AnySequence { return sequence._anyElements }
        return nil
    }

    /// The non-nil elements of a constant sequence as a JSON array text, for `json_each(?)`.
    static func jsonElements(_ value: Any) throws -> DatabaseValue {
        guard let elements = elements(value) else {
            throw PredicateSQLError.unsupported("contains on a captured value of type \(type(of: value)) that is not a sequence")
        }
        var json = "["
        var first = true
        for element in elements {
            let encoded = try databaseValue(element)
            let text: String
            switch encoded {
            case .null: continue
            case .integer(let value): text = String(value)
            case .real(let value):
                guard value.isFinite else { continue }
                text = "\(value)"
            case .text(let value): text = jsonStringLiteral(value)
            case .blob:
                throw PredicateSQLError.unsupported("contains on a captured sequence of Data values")
            }
            json += first ? text : "," + text
            first = false
        }
        return .text(json + "]")
    }

    static func containsNil(_ value: Any) -> DatabaseValue {
        guard let elements = elements(value) else { return .integer(0) }
        let hasNil = elements.contains { element in
            if let optional = element as? any _OptionalMarker { return optional._wrappedAny == nil }
            return false
        }
        return .integer(hasNil ? 1 : 0)
    }

    /// The bounds of a constant range (`Range`, `ClosedRange`, partial ranges).
    static func bounds(_ value: Any) throws -> (lower: DatabaseValue, upper: DatabaseValue) {
        guard let range = value as? any _AnyRangeBounds else {
            throw PredicateSQLError.unsupported("contains on a captured value of type \(type(of: value))")
        }
        return (try range._lower.map(databaseValue) ?? .null, try range._upper.map(databaseValue) ?? .null)
    }
}

extension ArgumentSource {
    /// The value to bind for this source when the constants are bound values already (a Core
    /// Data fetch request's): no array of `Any` to make and cast back.
    func value(boundValues: [DatabaseValue], limit: Int?, offset: Int?) throws -> DatabaseValue {
        if case .constant(let index) = self, boundValues.indices.contains(index) { return boundValues[index] }
        return try value(constants: [], limit: limit, offset: offset)
    }

    /// The value to bind for this source.
    func value(constants: [Any], limit: Int?, offset: Int?) throws -> DatabaseValue {
        func constant(_ index: Int) throws -> Any {
            guard index < constants.count else {
                throw PredicateSQLError.internalInconsistency("argument \(index) is missing")
            }
            return constants[index]
        }
        switch self {
        case .constant(let index): return try PredicateValues.databaseValue(constant(index))
        case .constantElements(let index): return try PredicateValues.jsonElements(constant(index))
        case .constantContainsNil(let index): return PredicateValues.containsNil(try constant(index))
        case .constantLowerBound(let index): return try PredicateValues.bounds(constant(index)).lower
        case .constantUpperBound(let index): return try PredicateValues.bounds(constant(index)).upper
        case .literal(let value): return value
        case .limit: return .integer(Int64(limit ?? -1))
        case .offset: return .integer(Int64(offset ?? 0))
        }
    }
}

/// Lets Cairn read the elements of a captured `Set` or other sequence. Not public API.
protocol _AnySequence {
    var _anyElements: [Any] { get }
}

extension Set: _AnySequence {
    var _anyElements: [Any] { map { $0 as Any } }
}

extension ContiguousArray: _AnySequence {
    var _anyElements: [Any] { map { $0 as Any } }
}

extension ArraySlice: _AnySequence {
    var _anyElements: [Any] { map { $0 as Any } }
}

/// Lets Cairn read the bounds of a captured range. Not public API.
protocol _AnyRangeBounds {
    var _lower: Any? { get }
    var _upper: Any? { get }
    /// Which bounds the range type has, and whether the upper one is included.
    static var _boundShape: (hasLower: Bool, hasUpper: Bool, closed: Bool) { get }
}

extension Range: _AnyRangeBounds {
    var _lower: Any? { lowerBound }
    var _upper: Any? { upperBound }
    static var _boundShape: (hasLower: Bool, hasUpper: Bool, closed: Bool) { (true, true, false) }
}

extension ClosedRange: _AnyRangeBounds {
    var _lower: Any? { lowerBound }
    var _upper: Any? { upperBound }
    static var _boundShape: (hasLower: Bool, hasUpper: Bool, closed: Bool) { (true, true, true) }
}

extension PartialRangeFrom: _AnyRangeBounds {
    var _lower: Any? { lowerBound }
    var _upper: Any? { nil }
    static var _boundShape: (hasLower: Bool, hasUpper: Bool, closed: Bool) { (true, false, true) }
}

extension PartialRangeThrough: _AnyRangeBounds {
    var _lower: Any? { nil }
    var _upper: Any? { upperBound }
    static var _boundShape: (hasLower: Bool, hasUpper: Bool, closed: Bool) { (false, true, true) }
}

extension PartialRangeUpTo: _AnyRangeBounds {
    var _lower: Any? { nil }
    var _upper: Any? { upperBound }
    static var _boundShape: (hasLower: Bool, hasUpper: Bool, closed: Bool) { (false, true, false) }
}
