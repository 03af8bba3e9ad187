import Cairn
import CairnCoreData
import Foundation

/// The check the format fuzz target runs on every input and the corpus tests replay: a
/// format that parses must print a canonical form that parses back to the same tree, and
/// evaluating it must end in an answer or a thrown error, never a crash.
public enum FormatRoundTripCheck {
    /// What one input came to.
    public enum Outcome: Sendable, Equatable {
        /// The input is not a valid format (a thrown error, as bad input should be).
        case rejected
        /// It parsed, round-tripped and evaluated.
        case passed
        /// The canonical form did not parse back, or parsed to another tree.
        case failed(String)
    }

    /// Runs the check on `text`, with the arguments `%@`, `%K`, `%d`, `%f`… take in order:
    /// a key, an integer, a double, a string with both quotes, nil and an array.
    public static func check(_ text: String) -> Outcome {
        let arguments: [Any?] = ["name", 42, 4.5, "x'y\"z", nil, [1, 2, 3]]
        guard let predicate = try? FormatPredicate(text, arguments: arguments) else { return .rejected }
        let printed = predicate.predicateFormat
        // `%K` takes any string as a key, as NSPredicate does (a dictionary's "first name"), and
        // the format language cannot write some of them: such a predicate has no printed form
        // that parses back, there as here. Every other predicate must round-trip.
        let mustRoundTrip = keys(of: predicate).allSatisfy(isWritable)
        do {
            let reparsed = try FormatPredicate(printed)
            if reparsed != predicate, mustRoundTrip {
                return .failed(
                    "\(text.debugDescription) prints as \(printed.debugDescription), which parses as "
                        + "\(reparsed.predicateFormat.debugDescription), another tree")
            }
        } catch {
            if mustRoundTrip {
                return .failed("\(text.debugDescription) prints as \(printed.debugDescription), which does not parse: \(error)")
            }
        }
        let object: [String: Any] = ["name": "Coffee", "amount": 4.5, "tags": ["a", "b"], "n": 3]
        let limits = FormatEvaluationLimits(regularExpressionTimeout: 0.05)
        _ = try? predicate.evaluate(with: object, limits: limits)
        return .passed
    }

    /// Whether a key path component can be written in a format: given through `%K`, it prints
    /// as text that parses back to the same key.
    public static func isWritable(_ key: String) -> Bool {
        guard let given = try? FormatPredicate("%K == 1", arguments: [key]) else { return false }
        return (try? FormatPredicate(given.predicateFormat)) == given
    }

    /// Every key path component of the predicate, in its comparisons, functions and subqueries.
    public static func keys(of predicate: FormatPredicate) -> [String] {
        switch predicate {
        case .constant: return []
        case .and(let parts), .or(let parts): return parts.flatMap(keys(of:))
        case .not(let inner): return keys(of: inner)
        case .comparison(let comparison): return keys(of: comparison.lhs) + keys(of: comparison.rhs)
        }
    }

    /// Every key path component of the expression.
    public static func keys(of expression: FormatExpression) -> [String] {
        switch expression {
        case .constant, .evaluatedObject, .variable: return []
        case .keyPath(let base, let path): return keys(of: base) + path
        case .index(let base, let index):
            if case .expression(let inner) = index { return keys(of: base) + keys(of: inner) }
            return keys(of: base)
        case .aggregate(let elements): return elements.flatMap(keys(of:))
        case .arithmetic(_, let lhs, let rhs): return keys(of: lhs) + keys(of: rhs)
        case .negate(let operand): return keys(of: operand)
        case .function(_, let arguments): return arguments.flatMap(keys(of:))
        case .customFunction(let receiver, _, let arguments): return keys(of: receiver) + arguments.flatMap(keys(of:))
        case .cast(let value, _): return keys(of: value)
        case .subquery(let collection, _, let inner): return keys(of: collection) + keys(of: inner)
        }
    }
}
