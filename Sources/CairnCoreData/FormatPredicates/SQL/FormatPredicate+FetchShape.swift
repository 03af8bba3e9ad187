import CairnQuery
import CairnSQLite
import Foundation

/// Where bound value `index` of a fetch shape goes: the constant a ``FormatPredicate/fetchShape()``
/// took out of the tree. ``FormatSQLCompiler`` binds it as `SQLExpression.parameter(index)`.
struct FormatFetchParameter: Sendable {
    let index: Int
}

extension FormatPredicate {
    /// The predicate with the constants that only become bound values taken out, and those
    /// values in order: two predicates of one shape compile to the same SQL text, so a fetch
    /// request's `SELECT` is compiled once per shape (`QueryCache`), as a `FetchDescriptor`'s is.
    ///
    /// ```swift
    /// try FormatPredicate("id == %lld AND title CONTAINS[c] 'run'", arguments: [7]).fetchShape()
    /// // shape: id == <value 0> AND title CONTAINS[c] "run"      values: [7]
    /// ```
    ///
    /// A constant is taken out where the SQL compiler binds it as it is and looks at nothing
    /// but its being a value: one side of `==`, `!=`, `<`, `<=`, `>`, `>=` without `ANY`/`ALL`,
    /// `[c]` or `[d]`, whose other side is a key path, and a number, string, `Bool`, date,
    /// `Data` or UUID. Every other constant (nil, lists, patterns of `CONTAINS` and the like,
    /// folded strings, models) stays in the shape, so it keys its own SQL. `nil` for a
    /// predicate whose SQL holds the time it was compiled at (`now()`), which no shape can keep.
    func fetchShape() -> (shape: FormatPredicate, values: [DatabaseValue])? {
        var values: [DatabaseValue] = []
        guard let shape = takingValues(into: &values) else { return nil }
        return (shape, values)
    }

    private func takingValues(into values: inout [DatabaseValue]) -> FormatPredicate? {
        switch self {
        case .constant:
            return self
        case .and(let operands), .or(let operands):
            var shapes: [FormatPredicate] = []
            shapes.reserveCapacity(operands.count)
            for operand in operands {
                guard let shape = operand.takingValues(into: &values) else { return nil }
                shapes.append(shape)
            }
            if case .and = self { return .and(shapes) }
            return .or(shapes)
        case .not(let operand):
            return operand.takingValues(into: &values).map { .not($0) }
        case .comparison(var comparison):
            guard !comparison.lhs.readsTheClock, !comparison.rhs.readsTheClock else { return nil }
            guard comparison.modifier == .direct, comparison.options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive])
            else { return self }
            switch comparison.operatorType {
            case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: break
            default: return self
            }
            if case .keyPath(.evaluatedObject, _) = comparison.lhs, let value = Self.boundAsItIs(comparison.rhs) {
                comparison.rhs = .constant(.opaque(FormatOpaqueValue(parameter: values.count)))
                values.append(value)
            } else if case .keyPath(.evaluatedObject, _) = comparison.rhs, let value = Self.boundAsItIs(comparison.lhs) {
                comparison.lhs = .constant(.opaque(FormatOpaqueValue(parameter: values.count)))
                values.append(value)
            }
            return .comparison(comparison)
        }
    }

    /// The bound value of a constant the compiler binds unchanged whatever it is.
    private static func boundAsItIs(_ expression: FormatExpression) -> DatabaseValue? {
        guard case .constant(let value) = expression else { return nil }
        switch value {
        case .bool, .int, .double, .string, .date, .data, .uuid: return value.databaseValue
        case .null, .array, .identifier, .opaque: return nil
        }
    }
}

extension FormatExpression {
    /// Whether the expression calls `now()`, `random()` or `randomn()`, whose value is taken
    /// when the predicate is compiled.
    var readsTheClock: Bool {
        switch self {
        case .constant, .evaluatedObject, .variable:
            return false
        case .function(let function, let arguments):
            return [.now, .random, .randomn].contains(function) || arguments.contains { $0.readsTheClock }
        case .keyPath(let base, _):
            return base.readsTheClock
        case .index(let base, let index):
            if case .expression(let inner) = index, inner.readsTheClock { return true }
            return base.readsTheClock
        case .aggregate(let elements):
            return elements.contains { $0.readsTheClock }
        case .arithmetic(_, let lhs, let rhs):
            return lhs.readsTheClock || rhs.readsTheClock
        case .negate(let operand), .cast(let operand, _):
            return operand.readsTheClock
        case .customFunction(let receiver, _, let arguments):
            return receiver.readsTheClock || arguments.contains { $0.readsTheClock }
        case .subquery(let collection, _, let predicate):
            return collection.readsTheClock || predicate.readsTheClock
        }
    }
}

extension FormatPredicate {
    /// Whether a comparison in the predicate calls `now()`, `random()` or `randomn()`.
    var readsTheClock: Bool {
        switch self {
        case .constant: false
        case .and(let operands), .or(let operands): operands.contains { $0.readsTheClock }
        case .not(let operand): operand.readsTheClock
        case .comparison(let comparison): comparison.lhs.readsTheClock || comparison.rhs.readsTheClock
        }
    }
}

/// What fixes the SQL of a Core Data fetch request: its predicate without the values that are
/// only bound (``FormatPredicate/fetchShape()``), or `nil` for none, and its sort descriptors.
/// The key of the request's compiled `SELECT` in Cairn's query cache (a class, as
/// `SurfaceQueryShape` says why).
final class FormatFetchRequestShape: SurfaceQueryShape {
    let predicate: FormatPredicate?
    let sorts: [FormatSortDescriptor]

    init(predicate: FormatPredicate?, sorts: [FormatSortDescriptor]) {
        self.predicate = predicate
        self.sorts = sorts
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(predicate)
        hasher.combine(sorts)
    }

    func isEqual(to other: any SurfaceQueryShape) -> Bool {
        guard let other = other as? FormatFetchRequestShape else { return false }
        return sorts == other.sorts && predicate == other.predicate
    }
}

extension ModelContext {
    /// The stored models a Core Data fetch request selects, its `SELECT` compiled once per
    /// ``FormatFetchRequestShape``, so a lookup by key in a loop compiles and renders its SQL
    /// once.
    ///
    /// `compile` turns a predicate (the shape's, or the request's own) into the condition and
    /// the ordering of the `SELECT`, with the request's sort descriptors. A shape whose compile
    /// fails is compiled again from the request's predicate, whose error (with its values) is
    /// thrown. Not cached: a predicate that calls `now()`, and a page whose last sort key is
    /// descending, which is read in index order (`storedModelsInIndexOrder`).
    func fetchStoredModels<T: PersistentModel>(
        _ type: T.Type, matching predicate: FormatPredicate?, sortedBy sorts: [FormatSortDescriptor], limit: Int?,
        offset: Int, compile: (FormatPredicate?) throws -> (condition: SQLExpression?, ordering: [SQLOrderingTerm])
    ) throws -> [T] {
        var shape: FormatFetchRequestShape? = FormatFetchRequestShape(predicate: nil, sorts: sorts)
        var values: [DatabaseValue] = []
        if let predicate {
            if let (tree, taken) = predicate.fetchShape() {
                shape = FormatFetchRequestShape(predicate: tree, sorts: sorts)
                values = taken
            } else {
                shape = nil
            }
        }
        if limit != nil, sorts.last?.ascending == false { shape = nil }
        return try fetchStoredModels(
            type, shape: shape, boundValues: values, limit: limit, offset: offset,
            compileShape: { try compile(shape?.predicate) }, compile: { try compile(predicate) })
    }
}
