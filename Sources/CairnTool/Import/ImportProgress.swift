import Foundation

/// Import progress on standard error: a bar redrawn in place on a terminal (rows/s, ETA), a
/// line per report otherwise (logs, pipes).
final class ImportProgress {
    let total: Int
    let console: Console
    let started = Date()
    private var lastLine = Date.distantPast
    private var drawn = false

    init(total: Int, console: Console) {
        self.total = total
        self.console = console
    }

    func report(_ done: Int) {
        let now = Date()
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let rate = Double(done) / elapsed
        if console.errorIsTerminal {
            // Ten redraws a second are enough to read; more only cost the terminal time.
            guard now.timeIntervalSince(lastLine) >= 0.1 || done == total else { return }
            lastLine = now
            let width = 30
            let filled = total == 0 ? width : width * done / total
            let remaining = rate > 0 ? Double(total - done) / rate : 0
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            console.error("\r\(bar) \(done)/\(total) rows  \(Int(rate)) rows/s  ETA \(Self.duration(remaining))  ")
            drawn = true
        } else if now.timeIntervalSince(lastLine) >= 1 || done == total {
            lastLine = now
            console.error("imported \(done)/\(total) rows (\(Int(rate)) rows/s)\n")
        }
    }

    /// Ends the bar's line, so what follows starts on its own.
    func end() {
        if drawn { console.error("\n") }
        drawn = false
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        return whole < 60 ? "\(whole)s" : "\(whole / 60)m\(String(format: "%02d", whole % 60))s"
    }
}
