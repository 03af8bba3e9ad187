import Foundation

/// The string comparisons Core Data sort descriptors name by selector, as total orders Cairn
/// implements identically in memory and as SQLite collations (``FormatSQLFunctions/collations``).
///
/// ```swift
/// FormatStringComparison.localizedStandardCompare.compare("File10", "file9")  // .orderedDescending
/// ```
public enum FormatStringComparison: String, Sendable, Hashable, CaseIterable {
    /// `compare:`: literal order, by Unicode scalar (SQLite's `BINARY` order of UTF-8).
    case compare = "compare:"
    /// `caseInsensitiveCompare:`: literal order after case folding; strings that differ only
    /// by case are equal.
    case caseInsensitiveCompare = "caseInsensitiveCompare:"
    /// `localizedCompare:`: case- and diacritic-folded order first, then unaccented before
    /// accented, then lowercase before uppercase.
    case localizedCompare = "localizedCompare:"
    /// `localizedCaseInsensitiveCompare:`: as `localizedCompare:` but strings that differ only
    /// by case are equal.
    case localizedCaseInsensitiveCompare = "localizedCaseInsensitiveCompare:"
    /// `localizedStandardCompare:`: Finder-like natural order: runs of digits compare by
    /// numeric value (`file9` before `file10`), letters case- and diacritic-insensitively,
    /// then the `localizedCompare:` tie-breaks.
    case localizedStandardCompare = "localizedStandardCompare:"

    /// The comparison a selector name spells (`"localizedStandardCompare:"`); nil if unknown.
    public init?(selector: String) {
        self.init(rawValue: selector)
    }

    /// Compares two strings.
    public func compare(_ a: String, _ b: String) -> ComparisonResult {
        switch self {
        case .compare:
            return Self.literal(a, b)
        case .caseInsensitiveCompare:
            return Self.literal(Self.fold(a, case: true, diacritics: false), Self.fold(b, case: true, diacritics: false))
        case .localizedCompare, .localizedCaseInsensitiveCompare:
            let primary = Self.literal(Self.fold(a, case: true, diacritics: true), Self.fold(b, case: true, diacritics: true))
            return primary != .orderedSame ? primary : Self.tieBreak(a, b, caseSensitive: self == .localizedCompare)
        case .localizedStandardCompare:
            let primary = Self.natural(Self.fold(a, case: true, diacritics: true), Self.fold(b, case: true, diacritics: true))
            if primary != .orderedSame { return primary }
            return Self.tieBreak(a, b, caseSensitive: true)
        }
    }

    /// Order by Unicode scalar: UTF-8 byte order, which is scalar order and SQLite's `BINARY`.
    static func literal(_ a: String, _ b: String) -> ComparisonResult {
        var x = a.utf8.makeIterator(), y = b.utf8.makeIterator()
        while true {
            switch (x.next(), y.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case let (p?, q?) where p != q: return p < q ? .orderedAscending : .orderedDescending
            default: continue
            }
        }
    }

    /// Case and diacritic folding, then canonical composition, as format predicates fold.
    static func fold(_ string: String, case: Bool, diacritics: Bool) -> String {
        var options: FormatComparisonOptions = []
        if `case` { options.insert(.caseInsensitive) }
        if diacritics { options.insert(.diacriticInsensitive) }
        return FormatEvaluator.fold(string, options)
    }

    /// Unaccented before accented, then (when case-sensitive) lowercase before uppercase,
    /// then literal order, so equal-looking strings still sort deterministically.
    static func tieBreak(_ a: String, _ b: String, caseSensitive: Bool) -> ComparisonResult {
        let accents = literal(fold(a, case: true, diacritics: false), fold(b, case: true, diacritics: false))
        if accents != .orderedSame || !caseSensitive { return accents }
        let swapped = literal(swapCase(a), swapCase(b))
        return swapped != .orderedSame ? swapped : literal(a, b)
    }

    private static func swapCase(_ string: String) -> String {
        String(string.map { character -> String in
            character.isUppercase ? character.lowercased() : character.isLowercase ? character.uppercased() : String(character)
        }.joined())
    }

    /// Natural order: digit runs by value (then fewer leading zeros first), the rest by
    /// character.
    static func natural(_ a: String, _ b: String) -> ComparisonResult {
        let x = Array(a), y = Array(b)
        var i = 0, j = 0
        var zerosTieBreak = ComparisonResult.orderedSame
        while i < x.count, j < y.count {
            if let _ = x[i].asciiDigit, let _ = y[j].asciiDigit {
                let startI = i, startJ = j
                while i < x.count, x[i].asciiDigit != nil { i += 1 }
                while j < y.count, y[j].asciiDigit != nil { j += 1 }
                let runA = x[startI..<i].drop { $0 == "0" }, runB = y[startJ..<j].drop { $0 == "0" }
                if runA.count != runB.count { return runA.count < runB.count ? .orderedAscending : .orderedDescending }
                for (p, q) in zip(runA, runB) where p != q {
                    return p < q ? .orderedAscending : .orderedDescending
                }
                if zerosTieBreak == .orderedSame, (i - startI) != (j - startJ) {
                    zerosTieBreak = (i - startI) < (j - startJ) ? .orderedAscending : .orderedDescending
                }
                continue
            }
            if x[i] != y[j] {
                return String(x[i]) < String(y[j]) ? .orderedAscending : .orderedDescending
            }
            i += 1
            j += 1
        }
        if i < x.count { return .orderedDescending }
        if j < y.count { return .orderedAscending }
        return zerosTieBreak
    }
}

extension Character {
    var asciiDigit: UInt8? {
        guard let ascii = asciiValue, ascii >= 48, ascii <= 57 else { return nil }
        return ascii - 48
    }
}
