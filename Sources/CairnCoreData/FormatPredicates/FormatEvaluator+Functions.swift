import Foundation

extension FormatEvaluator {
    // MARK: - Arithmetic

    /// `+ - * / **` on numbers (integers stay integers until they overflow; `/` and `**` give
    /// doubles; division by zero gives nil, as in SQL), and `date ± seconds`. nil in, nil out.
    func arithmetic(_ op: FormatArithmeticOperator, _ lhs: FormatOperand, _ rhs: FormatOperand)
        throws(FormatPredicateError) -> FormatOperand
    {
        if lhs.isNull || rhs.isNull { return .null }
        if case .value(.date(let date)) = lhs, let seconds = rhs.number, op == .add || op == .subtract {
            return .value(.date(date.addingTimeInterval(op == .add ? seconds.double : -seconds.double)))
        }
        guard let a = lhs.number, let b = rhs.number else {
            throw fail("cannot apply '\(op.rawValue)' to a \(lhs.kindName) and a \(rhs.kindName)")
        }
        if case .int(let x) = a, case .int(let y) = b {
            let result: (partialValue: Int64, overflow: Bool)?
            switch op {
            case .add: result = x.addingReportingOverflow(y)
            case .subtract: result = x.subtractingReportingOverflow(y)
            case .multiply: result = x.multipliedReportingOverflow(by: y)
            case .divide, .power: result = nil
            }
            if let result, !result.overflow { return .value(.int(result.partialValue)) }
        }
        let x = a.double, y = b.double
        // Division by zero is nil, as SQL's NULL, so both evaluators agree.
        if op == .divide, y == 0 { return .null }
        switch op {
        case .add: return .value(.double(x + y))
        case .subtract: return .value(.double(x - y))
        case .multiply: return .value(.double(x * y))
        case .divide: return .value(.double(x / y))
        case .power: return .value(.double(pow(x, y)))
        }
    }

    // MARK: - Functions

    func call(_ function: FormatFunction, _ arguments: [FormatOperand]) throws(FormatPredicateError) -> FormatOperand {
        switch function {
        case .now:
            return .value(.date(Date()))
        case .random:
            return .value(.double(Double.random(in: 0..<1)))
        case .randomn:
            guard case .int(let bound)? = arguments.first?.number, bound > 0 else {
                throw fail("randomn() needs a positive integer")
            }
            return .value(.int(Int64.random(in: 0..<bound)))
        case .lowercase, .uppercase:
            guard let argument = arguments.first else { return .null }
            if argument.isNull { return .null }
            guard let string = argument.string else {
                throw fail("\(function.rawValue)() needs a string, not a \(argument.kindName)")
            }
            return .value(.string(function == .lowercase ? string.lowercased() : string.uppercased()))
        case .sqrt, .log, .ln, .exp, .floor, .ceiling, .abs, .trunc:
            guard let argument = arguments.first else { return .null }
            if argument.isNull { return .null }
            guard let number = argument.number else {
                throw fail("\(function.rawValue)() needs a number, not a \(argument.kindName)")
            }
            return unary(function, number)
        case .modulus:
            guard arguments.count == 2, let a = arguments[0].number, let b = arguments[1].number else {
                if arguments.contains(where: \.isNull) { return .null }
                throw fail("modulus() needs two numbers")
            }
            if case .int(let x) = a, case .int(let y) = b {
                guard y != 0 else { throw fail("modulus() by zero") }
                let (remainder, overflow) = x.remainderReportingOverflow(dividingBy: y)
                return .value(.int(overflow ? 0 : remainder))
            }
            return .value(.double(fmod(a.double, b.double)))
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev:
            var values: [FormatOperand] = []
            for argument in arguments { values.append(contentsOf: argument.elements) }
            return try aggregate(function, values.filter { !$0.isNull })
        }
    }

    private func unary(_ function: FormatFunction, _ number: FormatNumber) -> FormatOperand {
        if case .int(let int) = number {
            switch function {
            case .abs where int != Int64.min: return .value(.int(Swift.abs(int)))
            case .floor, .ceiling, .trunc: return .value(.int(int))
            default: break
            }
        }
        let x = number.double
        let result: Double =
            switch function {
            case .sqrt: x.squareRoot()
            case .log: log10(x)
            case .ln: Foundation.log(x)
            case .exp: Foundation.exp(x)
            case .floor: x.rounded(.down)
            case .ceiling: x.rounded(.up)
            case .abs: Swift.abs(x)
            default: x.rounded(.towardZero)
            }
        return .value(.double(result))
    }

    /// `sum`, `count`, `min`, `max`, `average`, `median`, `mode`, `stddev` over the values
    /// (nils already removed). Empty: `sum` and `count` are 0, the others nil.
    func aggregate(_ function: FormatFunction, _ values: [FormatOperand]) throws(FormatPredicateError) -> FormatOperand {
        if function == .count { return .value(.int(Int64(values.count))) }
        if function == .min || function == .max {
            var best: FormatOperand?
            for value in values {
                guard let current = best else {
                    best = value
                    continue
                }
                guard let order = order(value, current, []) else {
                    throw fail("\(function.rawValue) cannot compare a \(value.kindName) with a \(current.kindName)")
                }
                if function == .min ? order == .orderedAscending : order == .orderedDescending { best = value }
            }
            return best ?? .null
        }
        var numbers: [FormatNumber] = []
        for value in values {
            guard let number = value.number else {
                throw fail("\(function.rawValue) needs numbers, not a \(value.kindName)")
            }
            numbers.append(number)
        }
        switch function {
        case .sum:
            var total = FormatNumber.int(0).operand
            for number in numbers { total = try arithmetic(.add, total, number.operand) }
            return total
        case .average:
            guard !numbers.isEmpty else { return .null }
            return .value(.double(numbers.reduce(0) { $0 + $1.double } / Double(numbers.count)))
        case .median:
            let sorted = numbers.map(\.double).sorted()
            guard !sorted.isEmpty else { return .null }
            let middle = sorted.count / 2
            return .value(.double(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2))
        case .mode:
            var counts: [Double: Int] = [:]
            for number in numbers { counts[number.double, default: 0] += 1 }
            guard let best = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })
            else { return .null }
            return .value(.double(best.key))
        default:  // stddev (population)
            guard !numbers.isEmpty else { return .null }
            let doubles = numbers.map(\.double)
            let mean = doubles.reduce(0, +) / Double(doubles.count)
            let variance = doubles.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(doubles.count)
            return .value(.double(variance.squareRoot()))
        }
    }

    // MARK: - CAST

    /// `CAST(value, "NSDate")` (seconds since 2001-01-01), `"NSNumber"`, `"NSString"`,
    /// `"NSUUID"`, `"NSData"` (from base64).
    static func cast(_ value: FormatValue, to type: String) throws(FormatPredicateError) -> FormatValue {
        func failure() -> FormatPredicateError {
            FormatPredicateError(.evaluation, "cannot CAST a \(value.kindName) (\(value.predicateFormat)) to \(type)")
        }
        if case .null = value { return .null }
        switch type {
        case "NSDate":
            switch value {
            case .date: return value
            case .int(let seconds): return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
            case .double(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
            case .string(let text):
                if let seconds = Double(text) { return .date(Date(timeIntervalSinceReferenceDate: seconds)) }
                if let date = ISO8601DateFormatter().date(from: text) { return .date(date) }
                throw failure()
            default: throw failure()
            }
        case "NSNumber", "NSDecimalNumber":
            switch value {
            case .int, .double, .bool: return value
            case .date(let date): return .double(date.timeIntervalSinceReferenceDate)
            case .string(let text):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if let int = Int64(trimmed) { return .int(int) }
                if let double = Double(trimmed) { return .double(double) }
                throw failure()
            default: throw failure()
            }
        case "NSString":
            switch value {
            case .string: return value
            case .int(let int): return .string(String(int))
            case .double(let double): return .string(String(double))
            case .bool(let bool): return .string(bool ? "1" : "0")
            case .uuid(let uuid): return .string(uuid.uuidString)
            default: throw failure()
            }
        case "NSUUID":
            switch value {
            case .uuid: return value
            case .string(let text):
                guard let uuid = UUID(uuidString: text) else { throw failure() }
                return .uuid(uuid)
            default: throw failure()
            }
        case "PersistentIdentifier":
            switch value {
            case .identifier: return value
            case .string(let text):
                let parts = text.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, let key = Int64(parts[1]) else { throw failure() }
                return .identifier(.permanent(entityName: String(parts[0]), storeIdentifier: nil, primaryKey: key))
            default: throw failure()
            }
        case "NSData":
            switch value {
            case .data: return value
            case .string(let text):
                guard let data = Data(base64Encoded: text) else { throw failure() }
                return .data(data)
            default: throw failure()
            }
        default:
            throw failure()
        }
    }
}
