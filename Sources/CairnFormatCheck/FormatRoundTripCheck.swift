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
        let reparsed: FormatPredicate
        do {
            reparsed = try FormatPredicate(printed)
        } catch {
            return .failed("\(text.debugDescription) prints as \(printed.debugDescription), which does not parse: \(error)")
        }
        if reparsed != predicate {
            return .failed(
                "\(text.debugDescription) prints as \(printed.debugDescription), which parses as "
                    + "\(reparsed.predicateFormat.debugDescription), another tree")
        }
        let object: [String: Any] = ["name": "Coffee", "amount": 4.5, "tags": ["a", "b"], "n": 3]
        let limits = FormatEvaluationLimits(regularExpressionTimeout: 0.05)
        _ = try? predicate.evaluate(with: object, limits: limits)
        return .passed
    }
}
