import CairnBenchBaseline
import Foundation

/// One surface's run of the workloads: milliseconds and checksums, indexed W1...W13 (W7 to
/// W13 are Cairn's additions; see `workloadCount`).
/// A workload a surface does not run stays `nil`.
struct Measurements {
    var name: String
    /// The surface's name in callgrind section labels: "engine", "typedsql", ...
    var surfaceLabel: String
    var milliseconds: [Double?] = Array(repeating: nil, count: workloadCount)
    /// W1 has no checksum; the others must equal the C baseline's.
    var checksums: [Int64?] = Array(repeating: nil, count: workloadCount)
    /// Peak resident set size after the run, in KiB (Linux `VmHWM`).
    var peakRSSKiB: Int?

    /// Times `body`, records its milliseconds for workload `number` (1...13) and its checksum.
    /// A workload left out with `--workloads` is skipped, except W1, which fills the table
    /// the others read.
    mutating func measure(_ number: Int, _ body: () throws -> Int64?) rethrows {
        try measure(number, body, checksum: { $0 })
    }

    /// Times `work` alone; its result's checksum is taken and the result freed after the clock
    /// stops, as the C baseline does for W2 (it sums and frees its structs after timing), and
    /// as W11-W13 read back what they wrote.
    mutating func measure<Result>(
        _ number: Int, _ work: () throws -> Result, checksum: (Result) throws -> Int64?
    ) rethrows {
        guard number == 1 || selectedWorkloads.contains(number) else { return }
        cairn_bench_section_begin()
        let start = benchClockNanoseconds()
        let result = try work()
        let elapsed = benchClockNanoseconds() - start
        cairn_bench_section_end("\(surfaceLabel) W\(number)")
        milliseconds[number - 1] = Double(elapsed) / 1_000_000
        checksums[number - 1] = try checksum(result)
    }
}

extension Measurements {
    /// Each workload's faster time of two runs of the same surface; checksums must agree (a
    /// differing one is kept as nil, so the report flags it), peak memory is the larger.
    func fastest(with other: Measurements) -> Measurements {
        var m = self
        for i in 0..<workloadCount {
            switch (milliseconds[i], other.milliseconds[i]) {
            case let (a?, b?): m.milliseconds[i] = min(a, b)
            case let (a, b): m.milliseconds[i] = a ?? b
            }
            if checksums[i] != other.checksums[i] { m.checksums[i] = -1 }
        }
        if let a = peakRSSKiB, let b = other.peakRSSKiB { m.peakRSSKiB = max(a, b) }
        return m
    }

    /// Runs the C program of ../shared/bench/baseline.c on a fresh file.
    static func baseline(path: String, autocommit: Bool) throws -> (Measurements, String) {
        var result = CairnBaselineResult()
        guard cairn_baseline_run(path, autocommit ? 1 : 0, &result) == 0 else {
            throw BenchError("the C baseline failed on \(path)")
        }
        var m = Measurements(name: autocommit ? "c-autocommit" : "c", surfaceLabel: "c")
        let ms = withUnsafeBytes(of: result.milliseconds) { Array($0.bindMemory(to: Double.self)) }
        m.milliseconds = ms.map { $0 < 0 ? nil : $0 }
        let sums = withUnsafeBytes(of: result.checksum) { Array($0.bindMemory(to: Int64.self)) }
        m.checksums = [nil] + sums.dropFirst().enumerated().map { i, sum in ms[i + 1] < 0 ? nil : sum }
        // W8 (a tuple select of W2's rows) is compared with C's W2.
        m.milliseconds[7] = m.milliseconds[1]
        m.checksums[7] = m.checksums[1]
        let version = withUnsafeBytes(of: result.sqliteVersion) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let journal = withUnsafeBytes(of: result.journalMode) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return (m, "sqlite=\(version) journal=\(journal) synchronous=\(result.synchronous)")
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Peak resident set size of this process so far, in KiB, from /proc/self/status.
func peakResidentKiB() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
    return nil
}

/// Whether workloads are timed on the process's CPU clock (`--cpu-time`) rather than the wall
/// clock. Unchecked because main.swift sets it once, before anything runs.
nonisolated(unsafe) var usesCPUTime = false

/// Now, on the clock the C baseline uses too.
func benchClockNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(usesCPUTime ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
