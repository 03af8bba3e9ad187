import Foundation

extension FormatEvaluator {
    /// One comparison between two values, as `NSComparisonPredicate` evaluates it.
    ///
    /// nil equals only nil; an ordering comparison with nil, or between values of different
    /// kinds (a string and a number), is false; numbers of any type compare by value (`TRUE`
    /// is 1); `IN` and `CONTAINS` test membership for collections and substrings for strings.
    func test(
        _ lhs: FormatOperand, _ op: FormatOperator, _ rhs: FormatOperand, _ options: FormatComparisonOptions
    ) throws(FormatPredicateError) -> Bool {
        switch op {
        case .equalTo:
            return equal(lhs, rhs, options)
        case .notEqualTo:
            return !equal(lhs, rhs, options)
        case .lessThan:
            return order(lhs, rhs, options) == .orderedAscending
        case .lessThanOrEqualTo:
            guard let order = order(lhs, rhs, options) else { return false }
            return order != .orderedDescending
        case .greaterThan:
            return order(lhs, rhs, options) == .orderedDescending
        case .greaterThanOrEqualTo:
            guard let order = order(lhs, rhs, options) else { return false }
            return order != .orderedAscending
        case .between:
            let bounds = rhs.elements
            guard case .collection = rhs, bounds.count == 2 else {
                throw fail("BETWEEN needs a collection of two bounds, such as {1, 10}, not a \(rhs.kindName)")
            }
            guard let low = order(lhs, bounds[0], options), let high = order(lhs, bounds[1], options) else {
                return false
            }
            return low != .orderedAscending && high != .orderedDescending
        case .in:
            switch rhs {
            case .collection(let elements):
                return elements.contains { equal(lhs, $0, options) }
            case .value(.string(let haystack)):
                guard let needle = lhs.string else { return false }
                return Self.contains(fold(haystack, options), fold(needle, options))
            case .value(.null):
                return false
            default:
                return equal(lhs, rhs, options)
            }
        case .contains:
            switch lhs {
            case .collection(let elements):
                return elements.contains { equal($0, rhs, options) }
            case .value(.string(let haystack)):
                guard let needle = rhs.string else { return false }
                return Self.contains(fold(haystack, options), fold(needle, options))
            default:
                return false
            }
        case .beginsWith, .endsWith, .like, .matches:
            guard let string = lhs.string, let pattern = rhs.string else { return false }
            switch op {
            case .beginsWith: return fold(string, options).utf8.starts(with: fold(pattern, options).utf8)
            case .endsWith: return fold(string, options).utf8.reversed().starts(with: fold(pattern, options).utf8.reversed())
            case .like:
                return Self.like(Array(fold(string, options).unicodeScalars), Array(fold(pattern, options).unicodeScalars))
            default: return try matches(string, pattern, options)
            }
        }
    }

    /// Equality as `isEqual:` after the string options: numbers by value, collections element
    /// by element, models by identity, other values by `==` (``FormatOpaqueValue``), and
    /// strings literally, as `NSString.isEqual(to:)` is
    /// documented to compare: `"Café"` precomposed is not `"Cafe\u{301}"`, which is also what
    /// the SQL a fetch runs (`IS ?`, by bytes) answers. With `[c]` or `[d]`, both sides are
    /// folded and normalized first (``fold(_:_:)``), so canonically equivalent text is equal.
    func equal(_ lhs: FormatOperand, _ rhs: FormatOperand, _ options: FormatComparisonOptions) -> Bool {
        if let a = lhs.number, let b = rhs.number { return a.compare(b) == .orderedSame }
        switch (lhs, rhs) {
        case (.value(.string(let a)), .value(.string(let b))):
            return fold(a, options).utf8.elementsEqual(fold(b, options).utf8)
        case (.value(let a), .value(let b)):
            return a == b
        case (.collection(let a), .collection(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
        case (.object(let a), .object(let b)):
            return FormatOperand.identity(of: a) === FormatOperand.identity(of: b)
        case (.object(let object), .value(.identifier(let identifier))),
            (.value(.identifier(let identifier)), .object(let object)):
            return (object as? PersistentModelReader)?.model.persistentModelID == identifier
        case (.object(let object), .value(.opaque(let value))), (.value(.opaque(let value)), .object(let object)):
            // An object that also answers keys (a class conforming to KeyValueReadable) passed
            // for `%@`, and the object evaluated.
            let base: Any = (object as? PersistentModelReader)?.model ?? object
            return FormatOpaqueValue(base) == value
        default:
            return false
        }
    }

    /// The order of two values of the same kind (numbers, strings, dates); nil otherwise.
    /// Strings are ordered by Unicode scalar, after ``fold(_:_:)``, as SQLite's `BINARY`
    /// comparison orders their UTF-8, so `<` agrees with `==` and with the SQL of a fetch.
    func order(_ lhs: FormatOperand, _ rhs: FormatOperand, _ options: FormatComparisonOptions) -> ComparisonResult? {
        if let a = lhs.number, let b = rhs.number { return a.compare(b) }
        switch (lhs, rhs) {
        case (.value(.string(let a)), .value(.string(let b))):
            return FormatStringComparison.literal(fold(a, options), fold(b, options))
        case (.value(.date(let a)), .value(.date(let b))):
            return a == b ? .orderedSame : a < b ? .orderedAscending : .orderedDescending
        default:
            return nil
        }
    }

    /// Substring test by Unicode scalars, as SQL's `instr` and `GLOB` test; the empty string
    /// is in every string (as they also answer).
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        haystack.utf8.firstRange(of: needle.utf8) != nil
    }

    /// The string with `[c]` and `[d]` applied (Unicode case and diacritic folding).
    func fold(_ string: String, _ options: FormatComparisonOptions) -> String {
        Self.fold(string, options)
    }

    /// The string with `[c]` and `[d]` applied: Unicode case and diacritic folding, then
    /// canonical composition (NFC), so that text that differs only in how it is encoded
    /// (`"Zürich"` precomposed, `"Zu\u{308}rich"` decomposed) folds to the same scalars. The
    /// SQL of a fetch folds with this same function (`cairn_fold`), so both compare the same
    /// scalars. Without options the string is returned as it is: compared literally.
    static func fold(_ string: String, _ options: FormatComparisonOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        if folding.isEmpty { return string }
        let folded = string.folding(options: folding, locale: nil)
        // ASCII text is already composed; composing it would only cost a Foundation round trip.
        if folded.utf8.allSatisfy({ $0 < 0x80 }) { return folded }
        return folded.precomposedStringWithCanonicalMapping
    }

    /// `LIKE`: `*` matches any run of scalars, `?` exactly one, `\` escapes the next; by
    /// Unicode scalar, as the `GLOB` it compiles to matches.
    /// Linear backtracking on the last `*`, so no pattern can take exponential time.
    static func like(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var t = 0, p = 0
        var starPattern = -1, starText = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                starPattern = p
                starText = t
                p += 1
                continue
            }
            if p < pattern.count {
                var literal = pattern[p]
                var width = 1
                if literal == "\\", p + 1 < pattern.count {
                    literal = pattern[p + 1]
                    width = 2
                } else if literal == "?" {
                    t += 1
                    p += 1
                    continue
                }
                if literal == text[t] {
                    t += 1
                    p += width
                    continue
                }
            }
            guard starPattern >= 0 else { return false }
            p = starPattern + 1
            starText += 1
            t = starText
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    // MARK: - MATCHES

    /// `MATCHES`: the whole string matches the ICU regular expression, within the limits.
    func matches(_ string: String, _ pattern: String, _ options: FormatComparisonOptions) throws(FormatPredicateError) -> Bool {
        guard pattern.count <= limits.maximumPatternLength else { throw FormatRegularExpression.tooLong(pattern, limits) }
        let subject = options.contains(.diacriticInsensitive) ? fold(string, [.diacriticInsensitive]) : string
        let length = subject.utf16.count
        guard length <= limits.maximumMatchedLength else {
            throw fail(
                "MATCHES input is \(length) UTF-16 units long; the limit is \(limits.maximumMatchedLength)",
                .regularExpression)
        }
        let expression = try compile(pattern, options)
        var matched = false
        var timedOut = false
        let deadline = Date().addingTimeInterval(limits.regularExpressionTimeout)
        expression.enumerateMatches(
            in: subject, options: [.reportProgress], range: NSRange(location: 0, length: length)
        ) { result, _, stop in
            if result != nil { matched = true }
            if matched {
                stop.pointee = true
            } else if Date() > deadline {
                timedOut = true
                stop.pointee = true
            }
        }
        if timedOut {
            throw fail(
                "MATCHES pattern \(FormatValue.quote(pattern)) ran longer than \(limits.regularExpressionTimeout) s and was stopped",
                .regularExpression)
        }
        return matched
    }

    private func compile(_ pattern: String, _ options: FormatComparisonOptions) throws(FormatPredicateError) -> NSRegularExpression {
        let key = options.letters + ":" + pattern
        if let cached = regexCache.patterns[key] { return cached }
        let anchored = try FormatRegularExpression.compile(pattern, options)
        regexCache.patterns[key] = anchored
        return anchored
    }
}
