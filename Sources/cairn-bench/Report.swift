import Foundation

/// Prints each run as `NAME_ms=` lines (the baseline's format), then a table of ratios to C.
struct Report {
    var baseline: Measurements
    var runs: [Measurements]
    /// What the ratios divide by, as the footer says it.
    var baselineName = "C on the same machine and SQLite"

    var checksumsAgree: Bool {
        runs.allSatisfy { run in
            zip(run.checksums, baseline.checksums).allSatisfy { mine, c in mine == nil || mine == c }
        }
    }

    func print() {
        for run in [baseline] + runs {
            Swift.print("[\(run.name)]")
            let sums = run.checksums.enumerated().compactMap { i, v in v.map { "W\(i + 1)=\($0)" } }
            if !sums.isEmpty { Swift.print("check " + sums.joined(separator: " ")) }
            for (i, ms) in run.milliseconds.enumerated() {
                if let ms { Swift.print("W\(i + 1)_ms=" + String(format: "%.3f", ms)) }
            }
            if let rss = run.peakRSSKiB { Swift.print("peak_rss_kib=\(rss)") }
        }
        Swift.print("")
        let header = "surface".padding(toLength: 22, withPad: " ", startingAt: 0)
            + (1...workloadCount).map { "W\($0)".leftPadded(9) }.joined()
        Swift.print(header)
        Swift.print(String(repeating: "-", count: header.count))
        for run in runs {
            var line = run.name.padding(toLength: 22, withPad: " ", startingAt: 0)
            for i in 0..<workloadCount {
                if let mine = run.milliseconds[i], let c = baseline.milliseconds[i], c > 0 {
                    let mark = run.checksums[i].map { $0 == baseline.checksums[i] ? "" : "!" } ?? ""
                    line += (String(format: "%.2fx", mine / c) + mark).leftPadded(9)
                } else {
                    line += "-".leftPadded(9)
                }
            }
            Swift.print(line)
        }
        Swift.print("(ratio = surface time / time of \(baselineName); lower is better; ! = checksum differs)")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
