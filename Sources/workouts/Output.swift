import Foundation

/// Prints rows as an aligned table: a title, a header, a rule, the rows.
func printTable(_ title: String, _ header: [String], _ rows: [[String]], note: String? = nil) {
    print("\n\u{1B}[1m\(title)\u{1B}[0m")
    if let note { print(note) }
    guard !rows.isEmpty else {
        print("  (no rows)")
        return
    }
    var widths = header.map(\.count)
    for row in rows {
        for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { index, cell in
            let width = index < widths.count ? widths[index] : cell.count
            let padding = String(repeating: " ", count: max(0, width - cell.count))
            return isNumeric(cell) ? padding + cell : cell + padding
        }.joined(separator: "  ")
    }
    print("  " + line(header))
    print("  " + widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "))
    for row in rows { print("  " + line(row)) }
}

private func isNumeric(_ text: String) -> Bool {
    !text.isEmpty && text.allSatisfy { $0.isNumber || $0 == "." || $0 == "," || $0 == "-" }
}

/// `[██████████░░░░░░░░░░]  2,500 / 5,000` on one terminal line, redrawn in place.
final class ProgressBar: @unchecked Sendable {
    // @unchecked Sendable: `last` is only touched under `lock`; reports come from the actor.
    private let total: Int
    private let lock = NSLock()
    private var last = -1

    init(total: Int) { self.total = total }

    func report(_ done: Int) {
        lock.withLock {
            let width = 30
            let filled = total == 0 ? width : min(width, done * width / total)
            guard filled != last || done == total else { return }
            last = filled
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let text = "\r  importing [\(bar)] \(formatted(done)) / \(formatted(total))"
            FileHandle.standardError.write(Data(text.utf8))
            if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }
}

func formatted(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var groups: [Substring] = []
    var end = digits.endIndex
    while end > digits.startIndex {
        let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
        groups.insert(digits[start..<end], at: 0)
        end = start
    }
    return (number < 0 ? "-" : "") + groups.joined(separator: ",")
}

func formatted(_ number: Double, digits: Int = 1) -> String {
    String(format: "%.\(digits)f", number)
}

private let dayFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter
}()

func formatted(_ date: Date?) -> String {
    date.map { dayFormatter.string(from: $0) } ?? "—"
}
