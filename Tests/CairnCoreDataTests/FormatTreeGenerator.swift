import CairnCoreData
import CairnTestSupport
import Foundation

/// Random format-predicate trees of every node kind, in the shape the parser builds (a list
/// of constants is a constant array, `-5` is a constant, a key path's base is not a key path),
/// so that printing one and parsing the text back must give the same tree.
struct FormatTreeGenerator {
    var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// Keys that collide with the grammar: comparison option letters, reserved words,
    /// function names, index keywords.
    static let keys = [
        "name", "amount", "tags", "c", "d", "cd", "n", "dn", "C", "first", "FIRST", "size", "last",
        "in", "and", "self", "count", "now", "sum", "x_1", "_y", "subquery", "function", "cast",
    ]
    static let variables = ["x", "VALUE", "c", "d", "self_", "LIMIT"]
    static let strings = [
        "", "coffee", "it's", "say \"hi\"", "back\\slash", "tab\tline\nbreak", "nul\u{0}", "café",
        "e\u{301}", "🙂", "%@", "$x", "[c]", "a]b[", "\u{7F}", "\u{2028}",
    ]

    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        Int.random(in: 0..<denominator, using: &random) < numerator
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    // MARK: - Predicates

    mutating func predicate(depth: Int) -> FormatPredicate {
        let kind = depth <= 0 ? Int.random(in: 0..<2, using: &random) * 4 : Int.random(in: 0..<8, using: &random)
        switch kind {
        case 0: return .constant(chance(1, in: 2))
        case 1: return .and((0..<Int.random(in: 2...3, using: &random)).map { _ in predicate(depth: depth - 1) })
        case 2: return .or((0..<Int.random(in: 2...3, using: &random)).map { _ in predicate(depth: depth - 1) })
        case 3: return .not(predicate(depth: depth - 1))
        default: return .comparison(comparison(depth: depth - 1))
        }
    }

    mutating func comparison(depth: Int) -> FormatComparison {
        let operatorType = pick(FormatOperator.allCases)
        var options: FormatComparisonOptions = []
        if chance(1, in: 2) { options.insert(.caseInsensitive) }
        if chance(1, in: 3) { options.insert(.diacriticInsensitive) }
        if chance(1, in: 6) { options.insert(.normalized) }
        let modifier = pick([FormatModifier.direct, .direct, .any, .all])
        let rhs: FormatExpression
        switch operatorType {
        case .between where chance(1, in: 2):
            rhs = .constant(.array([constant(depth: 0), constant(depth: 0)]))
        case .between:
            rhs = .aggregate([keyPath(), expression(depth: depth)])
        case .matches where chance(1, in: 2):
            rhs = .constant(.string(pick(["a.*", "[cC]offee", "\\d+", "(x|y)?", "é+"])))
        case .matches:
            rhs = pick([keyPath(), .variable(pick(Self.variables))])
        default:
            rhs = expression(depth: depth)
        }
        return FormatComparison(expression(depth: depth), operatorType, rhs, modifier: modifier, options: options)
    }

    // MARK: - Expressions

    mutating func keyPath() -> FormatExpression {
        var path = [pick(Self.keys)]
        while chance(1, in: 3) { path.append(pick(Self.keys + ["@count", "@sum", "@avg", "@max"])) }
        return .keyPath(base: .evaluatedObject, path: path)
    }

    mutating func expression(depth: Int) -> FormatExpression {
        if depth <= 0 {
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1: return keyPath()
            case 2: return .variable(pick(Self.variables))
            case 3: return .evaluatedObject
            default: return .constant(constant(depth: 1))
            }
        }
        let inner = depth - 1
        switch Int.random(in: 0..<13, using: &random) {
        case 0: return .constant(constant(depth: 1))
        case 1: return keyPath()
        case 2:
            // A key path read from something that is not itself a key path (the parser joins those).
            let base = pick([FormatExpression.variable(pick(Self.variables)), .index(keyPath(), .first),
                             .function(.lowercase, [keyPath()]), .evaluatedObject])
            return .keyPath(base: base, path: [pick(Self.keys)])
        case 3:
            let index = pick([FormatIndex.first, .last, .size, .expression(.constant(.int(0))),
                              .expression(.constant(.string("key"))), .expression(keyPath()),
                              .expression(expression(depth: inner))])
            return .index(pick([keyPath(), .evaluatedObject, .variable("x")]), index)
        case 4:
            // At least one element that is not a constant, or the parser folds the list to one.
            return .aggregate([keyPath()] + (0..<Int.random(in: 0...2, using: &random)).map { _ in expression(depth: inner) })
        case 5:
            return .arithmetic(pick(FormatArithmeticOperator.allCases), expression(depth: inner), expression(depth: inner))
        case 6:
            let operand = expression(depth: inner)
            if case .constant(.int) = operand { return .negate(keyPath()) }
            if case .constant(.double) = operand { return .negate(keyPath()) }
            return .negate(operand)
        case 7:
            let function = pick(FormatFunction.allCases)
            let count = min(function.arity.upperBound, function.arity.lowerBound + Int.random(in: 0...1, using: &random))
            return .function(function, (0..<count).map { _ in expression(depth: inner) })
        case 8:
            return .customFunction(receiver: expression(depth: inner), selector: pick(["lowercaseString", "x:y:", "it's"]),
                                   arguments: chance(1, in: 2) ? [] : [expression(depth: inner)])
        case 9:
            return .cast(keyPath(), type: pick(["NSDate", "NSNumber", "NSString"]))
        case 10:
            let variable = pick(Self.variables)
            return .subquery(collection: keyPath(), variable: variable, predicate: predicate(depth: inner))
        case 11:
            return .variable(pick(Self.variables))
        default:
            return .evaluatedObject
        }
    }

    mutating func constant(depth: Int) -> FormatValue {
        switch Int.random(in: 0..<(depth > 0 ? 10 : 9), using: &random) {
        case 0: return .null
        case 1: return .bool(chance(1, in: 2))
        case 2: return .int(pick([0, 1, -1, 42, -7, Int64.max, Int64.min + 1, Int64.min]))
        case 3: return .double(pick([0.5, -2.25, 1e-5, 1e300, -0.0, .infinity, -.infinity, 3.0, 0.1 + 0.2]))
        case 4, 5: return .string(pick(Self.strings))
        case 6: return .date(Date(timeIntervalSinceReferenceDate: pick([0, 700_000_000.25, -1.5, 1e-3])))
        case 7: return .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID())
        case 8: return .data(Data([0, 1, 254, 255]))
        default: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in constant(depth: depth - 1) })
        }
    }
}
