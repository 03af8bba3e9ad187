import Foundation

extension FormatPredicate: CustomStringConvertible {
    /// The canonical format: keywords uppercased, strings double-quoted, options after the
    /// operator, parentheses only where needed. It parses back to an equal predicate.
    ///
    /// ```swift
    /// try FormatPredicate("name contains[cd] 'bucks' && !(amount < 5 or amount > 50)").predicateFormat
    /// // name CONTAINS[cd] "bucks" AND NOT (amount < 5 OR amount > 50)
    /// ```
    public var predicateFormat: String {
        switch self {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let operands):
            if operands.isEmpty { return "TRUEPREDICATE" }
            if operands.count == 1 { return operands[0].predicateFormat }
            return operands.map(\.compoundOperandFormat).joined(separator: " AND ")
        case .or(let operands):
            if operands.isEmpty { return "FALSEPREDICATE" }
            if operands.count == 1 { return operands[0].predicateFormat }
            return operands.map(\.compoundOperandFormat).joined(separator: " OR ")
        case .not(let operand):
            switch operand {
            case .constant, .comparison, .not: return "NOT " + operand.predicateFormat
            case .and(let operands) where operands.count < 2: return "NOT " + operand.predicateFormat
            case .or(let operands) where operands.count < 2: return "NOT " + operand.predicateFormat
            default: return "NOT (" + operand.predicateFormat + ")"
            }
        case .comparison(let comparison):
            return comparison.predicateFormat
        }
    }

    private var compoundOperandFormat: String {
        switch self {
        case .and(let operands) where operands.count >= 2: "(" + predicateFormat + ")"
        case .or(let operands) where operands.count >= 2: "(" + predicateFormat + ")"
        default: predicateFormat
        }
    }

    public var description: String { predicateFormat }
}

extension FormatComparison: CustomStringConvertible {
    /// `ANY tags.name BEGINSWITH[cd] "sw"`.
    public var predicateFormat: String {
        let qualifier = modifier == .direct ? "" : modifier.rawValue + " "
        let options = self.options.letters.isEmpty ? "" : "[\(self.options.letters)]"
        return "\(qualifier)\(lhs.predicateFormat) \(operatorType.rawValue)\(options) \(rhs.predicateFormat)"
    }

    public var description: String { predicateFormat }
}

extension FormatExpression: CustomStringConvertible {
    /// The canonical text of the expression (see ``FormatPredicate/predicateFormat``).
    public var predicateFormat: String { format(minimumPrecedence: 0) }

    public var description: String { predicateFormat }

    /// 1-3: binary operators, 4: unary minus, 5: primaries and postfix forms.
    private var precedence: Int {
        switch self {
        case .arithmetic(let op, _, _): op.precedence
        case .negate: 4
        default: 5
        }
    }

    private func format(minimumPrecedence: Int) -> String {
        let text = unparenthesized
        return precedence < minimumPrecedence ? "(" + text + ")" : text
    }

    private var unparenthesized: String {
        switch self {
        case .constant(let value):
            return value.predicateFormat
        case .evaluatedObject:
            return "SELF"
        case .variable(let name):
            return "$" + name
        case .keyPath(let base, let path):
            let components = path.map(Self.formatKey).joined(separator: ".")
            if case .evaluatedObject = base { return components }
            return base.postfixBase + "." + components
        case .index(let base, let index):
            let inside: String
            switch index {
            case .first: inside = "FIRST"
            case .last: inside = "LAST"
            case .size: inside = "SIZE"
            case .expression(let expression): inside = expression.predicateFormat
            }
            let baseText = base == .evaluatedObject ? "SELF" : base.postfixBase
            return baseText + "[" + inside + "]"
        case .aggregate(let elements):
            return "{" + elements.map(\.predicateFormat).joined(separator: ", ") + "}"
        case .arithmetic(let op, let lhs, let rhs):
            let leftMinimum = op == .power ? op.precedence + 1 : op.precedence
            let rightMinimum = op == .power ? op.precedence : op.precedence + 1
            return lhs.format(minimumPrecedence: leftMinimum) + " \(op.rawValue) "
                + rhs.format(minimumPrecedence: rightMinimum)
        case .negate(let operand):
            if case .constant(.int(let value)) = operand, value >= 0 { return "-(" + operand.predicateFormat + ")" }
            if case .constant(.double(let value)) = operand, value >= 0 { return "-(" + operand.predicateFormat + ")" }
            return "-" + operand.format(minimumPrecedence: 4)
        case .function(let function, let arguments):
            return function.rawValue + "(" + arguments.map(\.predicateFormat).joined(separator: ", ") + ")"
        case .customFunction(let receiver, let selector, let arguments):
            let all = [receiver.predicateFormat, FormatValue.string(selector).predicateFormat]
                + arguments.map(\.predicateFormat)
            return "FUNCTION(" + all.joined(separator: ", ") + ")"
        case .cast(let value, let type):
            return "CAST(" + value.predicateFormat + ", " + FormatValue.string(type).predicateFormat + ")"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(collection.predicateFormat), $\(variable), \(predicate.predicateFormat))"
        }
    }

    /// The text of an expression that `.key` or `[index]` follows.
    private var postfixBase: String {
        switch self {
        case .variable, .keyPath, .index, .aggregate, .function, .customFunction, .cast, .subquery:
            return unparenthesized
        case .constant(.string), .constant(.array):
            return unparenthesized
        default:
            return "(" + unparenthesized + ")"
        }
    }

    /// A key path component, `#`-escaped when it is a reserved word.
    static func formatKey(_ key: String) -> String {
        if key.hasPrefix("@") { return key }
        return formatReservedWords.contains(key.uppercased()) ? "#" + key : key
    }
}

extension FormatValue: CustomStringConvertible {
    /// The literal that parses back to this value.
    public var predicateFormat: String {
        switch self {
        case .null: return "nil"
        case .bool(let value): return value ? "TRUE" : "FALSE"
        case .int(let value): return String(value)
        case .double(let value):
            if value.isInfinite { return value < 0 ? "-1e999" : "1e999" }
            if value.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
            return "\(value)"
        case .string(let value): return Self.quote(value)
        case .date(let date): return "CAST(\(date.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .data(let data): return "CAST(\(Self.quote(data.base64EncodedString())), \"NSData\")"
        case .uuid(let uuid): return "CAST(\(Self.quote(uuid.uuidString)), \"NSUUID\")"
        case .array(let values): return "{" + values.map(\.predicateFormat).joined(separator: ", ") + "}"
        case .identifier(let identifier):
            let key = identifier.primaryKey.map(String.init) ?? "temporary"
            return "CAST(\(Self.quote(identifier.entityName + "/" + key)), \"PersistentIdentifier\")"
        case .opaque(let value): return value.description
        }
    }

    public var description: String { predicateFormat }

    /// A double-quoted literal with `\"`, `\\` and control characters escaped (the same text a
    /// JSON string literal is).
    static func quote(_ text: String) -> String { jsonStringLiteral(text) }
}
