import Foundation

/// Why a format predicate could not be parsed, substituted or evaluated.
///
/// Its `description` names the problem and, for a parse error, shows the format with a caret
/// under the offending character:
///
/// ```
/// expected an expression after '==' at offset 8
///     name == AND amount > 5
///             ^
/// ```
public struct FormatPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, matchable in `catch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The format string is malformed.
        public static let syntax = Code(name: "syntax")
        /// A `%@`/`%K`/`%d`… specifier has no argument, or its argument has the wrong type.
        public static let argument = Code(name: "argument")
        /// A `$VARIABLE` has no value.
        public static let missingVariable = Code(name: "missingVariable")
        /// An operation cannot be applied to the values it met (for example `@sum` of strings).
        public static let evaluation = Code(name: "evaluation")
        /// A `MATCHES` pattern is invalid, too long, or ran out of time.
        public static let regularExpression = Code(name: "regularExpression")
        /// A key path names no attribute or relationship of the entity (SQL compilation).
        public static let unknownKey = Code(name: "unknownKey")
        /// A construct SQL cannot express, a sort selector or a `FUNCTION` selector that Cairn
        /// does not implement.
        public static let unsupported = Code(name: "unsupported")
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, in words.
    public let message: String
    /// The format string, when the error is about a position in it.
    public let format: String?
    /// The offset of the problem in `format`, counted in `Character`s from 0.
    public let offset: Int?

    /// An error of kind `code`, for code that parses or checks format predicates of its own and
    /// reports failures as Cairn does.
    ///
    /// ```swift
    /// throw FormatPredicateError(.syntax, "expected an expression after '=='",
    ///                            format: "name == AND amount > 5", offset: 8)
    /// ```
    ///
    /// - Parameters:
    ///   - code: The kind of failure, matchable in `catch`.
    ///   - message: What went wrong, in words.
    ///   - format: The format string, when the error is about a position in it.
    ///   - offset: The offset of the problem in `format`, in `Character`s from 0; with
    ///     `format`, ``description`` shows a caret under it.
    public init(_ code: Code, _ message: String, format: String? = nil, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.format = format
        self.offset = offset
    }

    /// This error with the comparison it arose in named first (`in name MATCHES "[x": …`).
    func within(_ comparison: FormatComparison) -> FormatPredicateError {
        FormatPredicateError(code, "in \(comparison.predicateFormat): \(message)", format: format, offset: offset)
    }

    public var description: String {
        guard let format, let offset else { return message }
        let line = format.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\t", with: " ")
        let caret = String(repeating: " ", count: max(0, offset)) + "^"
        return "\(message) at offset \(offset)\n    \(line)\n    \(caret)"
    }
}
