import Foundation

// How a Foundation `Predicate<T>` becomes SQL.
//
// Every supported `PredicateExpressions.*` type conforms, conditionally on its children, to
// `SQLPredicateExpression`; `predicate.expression as? any SQLPredicateExpression` then
// succeeds exactly when every node of the tree is supported. Two walks use the conformances:
//
// - the *shape walk* (`collectShape`) records what the static type of the tree does not say
//   (operators, key paths, which variable is used where) and evaluates every variable-free
//   subtree once in Swift (captured values, `text.isEmpty`, `Date.now`): those values are
//   bound, never part of the SQL. It runs on every fetch and is cheap;
// - the *compile walk* (`compileSQL`) runs only when the shape is not cached, and builds the
//   CairnQuery IR. Each bound value is a marker naming an ``ArgumentSource``, so the rendered
//   SQL's argument order maps back to the shape walk's constants.
//
// The SQL text therefore depends only on the shape; a new captured value only changes the
// arguments.

/// A `PredicateExpressions` type Cairn can turn into SQL.
protocol SQLPredicateExpression: PredicateExpression {
    /// Whether the subtree contains no variable (`$0`, a closure's element), so Swift can
    /// evaluate it once and bind the result.
    static var isVariableFree: Bool { get }
    /// Whether the subtree has integer arithmetic that Foundation's `evaluate` would stop the
    /// process on (overflow, division by zero); see ``checkedEvaluate(_:)``.
    static var mayTrap: Bool { get }
    /// The subtree's value as `evaluate` gives it, except that integer arithmetic that would
    /// overflow or divide by zero throws ``PredicateArithmeticError`` instead of trapping.
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output
    /// Records the parts of the shape that the static type does not carry.
    func collectShape(_ shape: inout PredicateShape) throws
    /// Builds the SQL of the subtree.
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression
}

/// A node with two operands (`==`, `&&`, `??`, ranges, `contains`, `starts(with:)`,
/// `localizedStandardContains`, …): variable-free when both are, and its shape is theirs in
/// order. A conforming type names its operands and writes only `compileSQL`.
protocol TwoOperandSQLPredicateExpression: SQLPredicateExpression {
    associatedtype First: SQLPredicateExpression
    associatedtype Second: SQLPredicateExpression
    var operands: (First, Second) { get }
}

extension TwoOperandSQLPredicateExpression {
    static var isVariableFree: Bool { First.isVariableFree && Second.isVariableFree }
    static var mayTrap: Bool { First.mayTrap || Second.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        let (first, second) = operands
        try shape.visit(first)
        try shape.visit(second)
    }
}

/// A node with one operand (`!`, `is`, `as?`): variable-free when its operand is, and its
/// shape is its operand's. A conforming type names its operand and writes only `compileSQL`.
protocol OneOperandSQLPredicateExpression: SQLPredicateExpression {
    associatedtype Operand: SQLPredicateExpression
    var operand: Operand { get }
}

extension OneOperandSQLPredicateExpression {
    static var isVariableFree: Bool { Operand.isVariableFree }
    static var mayTrap: Bool { Operand.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.visit(operand)
    }
}

/// A subtree compiled to SQL, with the Swift type of its value.
struct CompiledExpression {
    enum Form {
        /// A scalar SQL value or condition.
        case scalar(SQLExpression)
        /// A variable-free subtree's value: the shape walk's constant at this index.
        case constant(Int)
        /// A model: the root row, or a to-one relationship's destination.
        case model(ModelReference)
        /// A to-many relationship (possibly filtered), usable by `contains`, `count`, … only.
        case toMany(ToManyReference)
        /// A range built from non-constant bounds, usable by `contains` only.
        case range(lower: SQLExpression, upper: SQLExpression, closed: Bool)
    }

    var form: Form
    /// The Swift type of the value (the expression's `Output`).
    var type: any Any.Type
    /// Whether evaluating the SQL can raise (a forced unwrap): such a subtree must only be
    /// evaluated when Swift would evaluate it (short-circuits become `CASE`).
    var mayRaise = false

    static func scalar(_ sql: SQLExpression, _ type: any Any.Type, mayRaise: Bool = false) -> CompiledExpression {
        CompiledExpression(form: .scalar(sql), type: type, mayRaise: mayRaise)
    }
}

/// A model reachable from the row being filtered.
struct ModelReference {
    let entity: Schema.Entity
    /// The model's primary key (for a to-one relationship: the foreign key column).
    let primaryKey: SQLExpression
    /// The alias of the model's table when its row is in scope (`t0`, a subquery's `t1`);
    /// `nil` reads its columns through scalar subqueries on the primary key.
    let alias: String?

    /// The SQL of one of the model's columns.
    func column(_ name: String) -> SQLExpression {
        if let alias { return .column(name, table: alias) }
        let select = SQLSelect([SQLExpression.column(name)], from: .table(entity.tableName))
            .where(SQLExpression.column(entity.primaryKeyColumn).equals(primaryKey))
        return .subquery(select)
    }
}

/// A to-many relationship of a model, with the conditions of any `filter` applied to it.
struct ToManyReference {
    let owner: ModelReference
    let relationship: Schema.Relationship
    let destination: Schema.Entity
    /// Extra conditions on the destination rows (from `filter`), each built for `alias`.
    var conditions: [SQLExpression] = []
    /// The alias of the destination table inside the subquery.
    let alias: String
}

/// Where one bound argument's value comes from when a compiled shape is run.
enum ArgumentSource: Sendable, Hashable {
    /// The shape walk's constant, bound as one value.
    case constant(Int)
    /// The non-nil elements of a constant sequence, as a JSON array (for `json_each`).
    case constantElements(Int)
    /// Whether a constant sequence contains `nil`.
    case constantContainsNil(Int)
    /// The lower bound of a constant range (`NULL` when it has none).
    case constantLowerBound(Int)
    /// The upper bound of a constant range (`NULL` when it has none).
    case constantUpperBound(Int)
    /// A value fixed by the shape.
    case literal(DatabaseValue)
    /// The descriptor's `fetchLimit`.
    case limit
    /// The descriptor's `fetchOffset`.
    case offset
}

/// The state of one compile walk: the bindings of variables, the argument sources and the
/// aliases handed out.
struct PredicateCompiler {
    /// The constants of the shape walk, in walk order.
    let constants: [Any]
    private var constantCursor = 0
    /// Every bound value, by marker.
    private(set) var sources: [ArgumentSource] = []
    /// What each variable stands for.
    var variables: [PredicateExpressions.VariableID: CompiledExpression] = [:]
    private var aliasCounter = 0
    /// The dialect of the store the SQL is for.
    let dialect: StoreDialect

    init(constants: [Any], dialect: StoreDialect) {
        self.constants = constants
        self.dialect = dialect
    }

    /// A fresh table alias (`t1`, `t2`, …; `t0` is the fetched row).
    mutating func makeAlias() -> String {
        aliasCounter += 1
        return "t\(aliasCounter)"
    }

    /// A bound value whose content comes from `source`: a placeholder in the SQL.
    mutating func bind(_ source: ArgumentSource) -> SQLExpression {
        sources.append(source)
        return .value(.integer(Int64(sources.count - 1)))
    }

    /// Compiles a child: a variable-free child becomes the next constant of the shape walk.
    mutating func compile<E: SQLPredicateExpression>(_ expression: E) throws -> CompiledExpression {
        if E.isVariableFree {
            guard constantCursor < constants.count, constants[constantCursor] is E.Output else {
                throw PredicateSQLError.internalInconsistency(
                    "the compile walk met constant \(constantCursor) of type \(E.Output.self), which the shape walk did not record")
            }
            defer { constantCursor += 1 }
            return CompiledExpression(form: .constant(constantCursor), type: E.Output.self)
        }
        return try expression.compileSQL(&self)
    }

    /// The SQL of a compiled value: constants are bound, models are their primary key.
    mutating func sql(_ compiled: CompiledExpression) throws -> SQLExpression {
        switch compiled.form {
        case .scalar(let sql): return sql
        case .constant(let index): return bind(.constant(index))
        case .model(let reference): return reference.primaryKey
        case .toMany(let reference):
            throw PredicateSQLError.unsupported(
                "the to-many relationship '\(reference.relationship.name)' used as a value "
                    + "(use contains, contains(where:), allSatisfy, filter, count or isEmpty)")
        case .range:
            throw PredicateSQLError.unsupported("a range used as a value (only range.contains(x) is supported)")
        }
    }

    /// The SQL of a Bool-valued compiled expression, usable as a condition.
    mutating func condition(_ compiled: CompiledExpression) throws -> SQLExpression {
        try sql(compiled)
    }
}

/// Why a predicate or sort cannot become SQL; surfaced as ``SwiftDataError``.
enum PredicateSQLError: Error {
    case unsupported(String)
    case unsupportedKeyPath(String)
    case unsupportedSort(String)
    case internalInconsistency(String)

    var swiftDataError: SwiftDataError {
        switch self {
        case .unsupported(let what):
            SwiftDataError.unsupportedPredicate.with(reason: "The predicate uses \(what), which Cairn cannot translate to SQL")
        case .unsupportedKeyPath(let what):
            SwiftDataError.unsupportedKeyPath.with(reason: what)
        case .unsupportedSort(let what):
            SwiftDataError.unsupportedSortDescriptor.with(reason: what)
        case .internalInconsistency(let what):
            SwiftDataError.unsupportedPredicate.with(reason: "Cairn could not compile the predicate: \(what)")
        }
    }
}

// MARK: - Types

/// What Cairn knows about a Swift value type when comparing or ordering it in SQL.
enum SQLValueKind: Equatable {
    case integer, real, bool, text, date, uuid, data, url, decimal
    case rawValue, model, identifier, comparisonResult
    case other

    /// The PostgreSQL type a JSON element's text is cast to, to compare with a column holding
    /// values of `type` (an optional's wrapped type, a raw-valued enum's raw type); `nil` for
    /// types compared otherwise.
    static func postgresElementType(of type: any Any.Type) -> String? {
        let base = unwrappedType(type).base
        switch of(base) {
        case .integer: return "BIGINT"
        case .real, .date: return "DOUBLE PRECISION"
        case .bool: return "BOOLEAN"
        case .text, .uuid, .url: return "TEXT"
        case .rawValue:
            guard let raw = base as? any RawRepresentable.Type else { return nil }
            return postgresElementType(of: raw.rawValueType)
        default: return nil
        }
    }

    /// The kind of a (non-optional) type.
    static func of(_ type: any Any.Type) -> SQLValueKind {
        switch type {
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
            is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            return .integer
        case is Double.Type, is Float.Type: return .real
        case is Bool.Type: return .bool
        case is String.Type, is Substring.Type, is Character.Type: return .text
        case is Date.Type: return .date
        case is UUID.Type: return .uuid
        case is Data.Type: return .data
        case is URL.Type: return .url
        case is Decimal.Type: return .decimal
        case is ComparisonResult.Type: return .comparisonResult
        case is PersistentIdentifier.Type: return .identifier
        case is any PersistentModel.Type: return .model
        case let raw as any RawRepresentable.Type:
            return SQLValueKind.of(raw.rawValueType) == .other ? .other : .rawValue
        default: return .other
        }
    }

    /// Whether SQL's ordering of the stored values is Swift's `<` on the values.
    var ordersLikeSwift: Bool {
        switch self {
        case .integer, .real, .text, .date, .uuid, .decimal: true
        default: false
        }
    }

    /// Whether SQL's equality of the stored values is Swift's `==`.
    var equatesLikeSwift: Bool {
        switch self {
        case .other: false
        default: true
        }
    }

    /// Whether comparisons need Cairn's Swift string collation.
    var isText: Bool { self == .text }

    /// The collation that makes SQL compare stored values as Swift does (`cairn_swift` for
    /// text, `cairn_decimal` for Decimal's exact text), or `nil` when the stored order is.
    var collation: String? {
        switch self {
        case .text: swiftStringCollation
        case .decimal: PredicateFunctions.decimalCollationName
        default: nil
        }
    }
}

extension RawRepresentable {
    fileprivate static var rawValueType: any Any.Type { RawValue.self }
}

/// A type with `Optional` removed, and whether it was optional.
func unwrappedType(_ type: any Any.Type) -> (base: any Any.Type, isOptional: Bool) {
    if let optional = type as? any _OptionalMarker.Type {
        return (unwrappedType(optional._wrappedType).base, true)
    }
    return (type, false)
}

/// `Workout` for `Workout`, `String?` for `Optional<String>`: type names for messages.
func typeName(_ type: any Any.Type) -> String {
    let (base, optional) = unwrappedType(type)
    if optional { return typeName(base) + "?" }
    return String(describing: base)
}

/// A key path as a message should show it. Swift prints a key path through a computed
/// property as `\Item.<computed 0x000055808f277af0 (Int)>`: the address of its getter, which
/// means nothing to a reader (the property's name is not kept at run time), so that part
/// becomes `<a computed property of type Int>`. (A model's attributes are computed properties
/// too: messages name those by the schema's property names, and reach this only for a key
/// path the schema does not know.)
func keyPathName(_ keyPath: AnyKeyPath) -> String {
    var text = Substring("\(keyPath)")
    var result = ""
    while let start = text.range(of: "<computed 0x") {
        result += text[..<start.lowerBound]
        let rest = text[start.upperBound...]
        guard let close = rest.firstIndex(of: ">") else { break }
        let inside = rest[..<close]
        if let open = inside.firstIndex(of: "("), inside.last == ")" {
            result += "<a computed property of type \(inside[inside.index(after: open)..<inside.index(before: inside.endIndex)])>"
        } else {
            result += "<a computed property>"
        }
        text = rest[rest.index(after: close)...]
    }
    return result + text
}
