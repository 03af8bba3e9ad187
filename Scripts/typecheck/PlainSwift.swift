// Plain Swift, no query in sight: `Scripts/typecheck-timing.sh` type-checks this file once as
// it is and once with `import Cairn` added, and compares the time of each function. Cairn's
// operators must not make the type checker try SQL readings of code like this.
import Foundation

func mixedArithmeticAndComparisons(a: Int, b: Int, c: Double, s: String, o: Int?) -> Bool {
    let x = a + b * 2 - 1 > a - b && Double(a) * c != c / 2 || s != "x" && o != nil
    return x
}

func chainedComparisons(a: Int, b: Int, c: Int, d: Int) -> Bool {
    a < b && b <= c || c > d && d >= a || a == b + c - d && a != d * 2
}

func optionalsAndLiterals(o: Int?, p: Double?, s: String?) -> Bool {
    (o ?? 0) + 1 > 2 && (p ?? 0.5) * 2 <= 3.5 || s == nil || s != "" && o == 3
}

func stringsAndDates(s: String, t: String, d: Date, e: Date) -> Bool {
    s + t == "ab" || s < t && d < e || d.timeIntervalSince(e) > 60 * 60 * 24 && s.count >= t.count + 1
}

func closuresOverCollections(values: [Int], names: [String]) -> Int {
    let odd = values.map { $0 * 2 + 1 }.filter { $0 > 3 && $0 % 2 == 1 }
    let total = odd.reduce(0, +)
    let long = names.filter { $0.count > 3 || $0 == "x" }.count
    return total + long * 3 - (values.first ?? 0)
}

func sortedAndCompared(pairs: [(Int, String)]) -> [(Int, String)] {
    pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 > $1.1 }
}

func doublesAndIntegers(a: Int, x: Double, y: Double) -> Bool {
    Double(a) / 3 + x * y - 1.5 >= x - y && -x < y || x * x + y * y == 1 && a % 3 != 0
}
