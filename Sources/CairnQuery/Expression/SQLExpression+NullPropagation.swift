// Whether an expression is NULL whenever one of its operands is, read from its shape.
//
// `map` on an optional typed-SQL expression must give NULL for a NULL operand. Most of what a
// `map` closure builds (comparisons, arithmetic, `upper(x)`, `strftime(…, x, …)`) is NULL for
// a NULL operand already, and then no `CASE WHEN x IS NULL THEN NULL ELSE … END` is needed: the
// SQL is the one the same function gives on the optional column directly. The answer is
// conservative: `true` only where SQLite's documented rules make the result NULL; anything it
// cannot read (a hand-written `#sql` fragment, an aggregate, `coalesce`, `IS`, `AND`, `OR`) is
// `false`, and the caller keeps the `CASE`.

extension SQLExpression {
    /// Whether this expression is NULL whenever `operand` is NULL, as far as its shape shows.
    ///
    /// ```swift
    /// let x = SQLExpression.column("dueDate", table: "reminders")
    /// SQLExpression.function("upper", x).propagatesNull(from: x)        // true
    /// x.greaterThan(.value(.integer(3))).propagatesNull(from: x)        // true: NULL > 3 is NULL
    /// x.is(.value(.integer(3))).propagatesNull(from: x)                 // false: NULL IS 3 is 0
    /// SQLExpression.function("coalesce", x, .null).propagatesNull(from: x)  // false
    /// ```
    public func propagatesNull(from operand: SQLExpression) -> Bool {
        if self == operand { return true }
        switch node {
        case let .unary(op, inner):
            switch op {
            case .not, .negative, .positive, .bitwiseNot: return inner.propagatesNull(from: operand)
            case .isNull, .isNotNull: return false
            }
        case let .binary(op, lhs, rhs):
            switch op {
            // `NULL IS x` is 0 or 1, and `NULL AND 0` is 0.
            case .is, .isNot, .and, .or: return false
            default: return lhs.propagatesNull(from: operand) || rhs.propagatesNull(from: operand)
            }
        case let .like(value, pattern, _, _):
            return value.propagatesNull(from: operand) || pattern.propagatesNull(from: operand)
        case let .function(name, arguments, quotesName):
            // A registered function (quoted, `@DatabaseFunction`) decides for itself.
            guard !quotesName else { return false }
            let name = name.lowercased()
            if Self.nullInAnyArgumentGivesNull.contains(name) {
                return arguments.contains { $0.propagatesNull(from: operand) }
            }
            if Self.nullInFirstArgumentGivesNull.contains(name) {
                return arguments.first?.propagatesNull(from: operand) ?? false
            }
            return false
        case let .between(value, _, _, _):
            return value.propagatesNull(from: operand)
        case let .inList(value, items, _):
            // An empty list renders a constant.
            return !items.isEmpty && value.propagatesNull(from: operand)
        case let .cast(inner, _), let .collate(inner, _):
            return inner.propagatesNull(from: operand)
        case .caseWhen(base: nil, let branches, _):
            // `CASE WHEN y IS NULL THEN NULL ELSE … END`, where `y` is NULL with the operand.
            guard branches.count == 1, branches[0].then.node == .null,
                case let .unary(.isNull, tested) = branches[0].when.node
            else { return false }
            return tested.propagatesNull(from: operand)
        case let .fragment(fragment):
            return fragment.propagatesNull && fragment.segments.contains {
                if case .expression(let inner) = $0 { inner.propagatesNull(from: operand) } else { false }
            }
        default:
            return false
        }
    }

    /// SQLite's built-in scalar functions that return NULL when any argument is NULL.
    private static let nullInAnyArgumentGivesNull: Set<String> = [
        "lower", "upper", "length", "replace", "substr", "substring", "trim", "ltrim", "rtrim", "instr",
        "abs", "sign", "unicode", "round", "strftime", "julianday", "date", "time", "datetime", "unixepoch",
    ]

    /// Functions that return NULL for a NULL first argument (the JSON document, `nullif`'s
    /// value); a NULL in another place may give a value (`json_insert(x, '$[#]', NULL)`
    /// appends a JSON null).
    private static let nullInFirstArgumentGivesNull: Set<String> = [
        "json", "json_extract", "json_array_length", "json_type", "json_insert", "json_set", "json_replace",
        "json_remove", "nullif",
    ]
}
