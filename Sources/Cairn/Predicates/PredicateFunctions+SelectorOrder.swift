import Foundation

// The string orders Core Data's sort selectors name (`caseInsensitiveCompare:`,
// `localizedCompare:`, `localizedCaseInsensitiveCompare:`, `localizedStandardCompare:`), as
// total orders that do not depend on the process's locale. The collations registered on every
// connection (`cairn_case_insensitive`, `cairn_localized`, `cairn_localized_case_insensitive`,
// `cairn_localized_standard`) and CairnCoreData's in-memory sort both call these.
extension PredicateFunctions {
    /// `caseInsensitiveCompare:`: literal order after case folding; strings that differ only
    /// by case are equal.
    package static func caseInsensitiveOrder(_ a: String, _ b: String) -> ComparisonResult {
        literalCompare(fold(a, [.caseInsensitive]), fold(b, [.caseInsensitive]))
    }

    /// `localizedCompare:` (`caseSensitive`) or `localizedCaseInsensitiveCompare:`: case- and
    /// diacritic-folded order first, then unaccented before accented, then (when case-sensitive)
    /// lowercase before uppercase.
    package static func localizedOrder(_ a: String, _ b: String, caseSensitive: Bool) -> ComparisonResult {
        let primary = literalCompare(fold(a, [.caseInsensitive, .diacriticInsensitive]), fold(b, [.caseInsensitive, .diacriticInsensitive]))
        return primary != .orderedSame ? primary : tieBreak(a, b, caseSensitive: caseSensitive)
    }

    /// `localizedStandardCompare:`: Finder-like natural order: runs of digits compare by
    /// numeric value (`file9` before `file10`), letters case- and diacritic-insensitively,
    /// then the `localizedCompare:` tie-breaks.
    package static func localizedStandardOrder(_ a: String, _ b: String) -> ComparisonResult {
        let primary = natural(fold(a, [.caseInsensitive, .diacriticInsensitive]), fold(b, [.caseInsensitive, .diacriticInsensitive]))
        return primary != .orderedSame ? primary : tieBreak(a, b, caseSensitive: true)
    }

    /// Unaccented before accented, then (when case-sensitive) lowercase before uppercase,
    /// then literal order, so equal-looking strings still sort deterministically.
    private static func tieBreak(_ a: String, _ b: String, caseSensitive: Bool) -> ComparisonResult {
        let accents = literalCompare(fold(a, [.caseInsensitive]), fold(b, [.caseInsensitive]))
        if accents != .orderedSame || !caseSensitive { return accents }
        let swapped = literalCompare(swapCase(a), swapCase(b))
        return swapped != .orderedSame ? swapped : literalCompare(a, b)
    }

    private static func swapCase(_ string: String) -> String {
        String(string.map { character -> String in
            character.isUppercase ? character.lowercased() : character.isLowercase ? character.uppercased() : String(character)
        }.joined())
    }

    /// Natural order: digit runs by value (then fewer leading zeros first), the rest by
    /// character.
    private static func natural(_ a: String, _ b: String) -> ComparisonResult {
        let x = Array(a), y = Array(b)
        var i = 0, j = 0
        var zerosTieBreak = ComparisonResult.orderedSame
        while i < x.count, j < y.count {
            if isASCIIDigit(x[i]), isASCIIDigit(y[j]) {
                let startI = i, startJ = j
                while i < x.count, isASCIIDigit(x[i]) { i += 1 }
                while j < y.count, isASCIIDigit(y[j]) { j += 1 }
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

    private static func isASCIIDigit(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return ascii >= 48 && ascii <= 57
    }
}
