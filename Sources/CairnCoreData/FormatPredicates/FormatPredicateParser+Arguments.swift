import Foundation

extension FormatPredicateParser {
    /// Replaces one format specifier by its argument, as a node of the tree (never as text).
    mutating func substitute(_ letters: String, position: Int?, at token: FormatToken)
        throws(FormatPredicateError) -> FormatExpression
    {
        let argumentIndex = position.map { $0 - 1 } ?? nextArgument
        if position == nil { nextArgument += 1 }
        if recordsSlots {
            slots.append(FormatTemplate.Slot(letters: letters, argument: argumentIndex, offset: token.offset))
            return FormatTemplate.placeholder(slots.count - 1)
        }
        return try Self.argument(letters, argumentIndex, of: arguments, format: format, offset: token.offset)
    }

    /// Argument `argumentIndex` of `arguments` for the specifier `%letters` at `offset` in
    /// `format`, as a node of the tree; a parse and a ``FormatTemplate`` both substitute here.
    static func argument(_ letters: String, _ argumentIndex: Int, of arguments: [Any?], format: String, offset: Int)
        throws(FormatPredicateError) -> FormatExpression
    {
        guard argumentIndex >= 0, argumentIndex < arguments.count else {
            throw FormatPredicateError(
                .argument,
                "format specifier %\(letters) needs argument \(argumentIndex + 1), but \(arguments.count) "
                    + (arguments.count == 1 ? "was" : "were") + " given",
                format: format, offset: offset)
        }
        let argument = arguments[argumentIndex]
        func fail(_ message: String) -> FormatPredicateError {
            FormatPredicateError(
                .argument, "argument \(argumentIndex + 1) for %\(letters): \(message)",
                format: format, offset: offset)
        }
        // The conversion letter as a byte: comparing `Character`s compares strings.
        guard let conversion = letters.utf8.last else { throw fail("empty specifier") }

        if conversion == UInt8(ascii: "K") {
            guard let keyPath = unwrapOptional(argument).flatMap(stringValue), !keyPath.isEmpty else {
                throw fail("%K needs a non-empty key path string, got \(typeName(argument))")
            }
            let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !components.contains(where: \.isEmpty) else {
                throw fail("'\(keyPath)' is not a valid key path")
            }
            return .keyPath(base: .evaluatedObject, path: components)
        }
        if conversion == UInt8(ascii: "@"), let expression = unwrapOptional(argument) as? any FormatExpressionConvertible {
            do {
                return try expression.argumentExpression()
            } catch {
                throw fail(error.message)
            }
        }
        guard let value = FormatValue(converting: argument) else {
            throw fail("a value of type \(typeName(argument)) cannot be used in a predicate")
        }
        switch Unicode.Scalar(conversion) {
        case "@":
            return .constant(value)
        case "d", "i", "D", "u", "U", "x", "X", "o", "O":
            switch value {
            case .int: return .constant(value)
            case .bool(let bool): return .constant(.int(bool ? 1 : 0))
            case .double(let double):
                guard let exact = Int64(exactly: double) else {
                    throw fail("%\(letters) needs an integer, got \(double)")
                }
                return .constant(.int(exact))
            default: throw fail("%\(letters) needs an integer, got \(value.kindName)")
            }
        case "f", "F", "e", "E", "g", "G":
            switch value {
            case .double: return .constant(value)
            case .int(let int): return .constant(.double(Double(int)))
            default: throw fail("%\(letters) needs a number, got \(value.kindName)")
            }
        case "s", "S", "c", "C":
            switch value {
            case .string: return .constant(value)
            case .int(let code) where conversion == UInt8(ascii: "c") || conversion == UInt8(ascii: "C"):
                guard let scalar = UInt32(exactly: code).flatMap(Unicode.Scalar.init) else {
                    throw fail("\(code) is not a character code")
                }
                return .constant(.string(String(Character(scalar))))
            default: throw fail("%\(letters) needs a string, got \(value.kindName)")
            }
        default:
            throw fail("unsupported conversion")
        }
    }
}

func stringValue(_ value: Any) -> String? {
    switch value {
    case let string as String: string
    case let substring as Substring: String(substring)
    case FormatValue.string(let string): string
    default: nil
    }
}

func typeName(_ value: Any?) -> String {
    guard let value = unwrapOptional(value) else { return "nil" }
    return String(describing: type(of: value))
}
