import Foundation
import Synchronization

/// W10, concurrent load, as baseline.c's concurrent_load.c runs it: 4 reader threads each
/// run W3's query 500 times (each read its own snapshot), while one writer thread inserts rows
/// in transactions of 100 until the readers are done. The clock runs from starting the threads
/// to the last reader's end. Threads, not tasks: a server's requests block in reads as these
/// do, and the cooperative pool of a 2-core machine would run only two of them.
///
/// The writer's rows never reach the readers' results (minutes 10, startedAt below every row
/// of W1), so the checksum is fixed: each read adds its ids and its row count, as W3 does.
enum ConcurrentLoad {
    static let readerCount = 4
    static let readsPerReader = 500
    static let batch = 100

    /// The `k`th row the writer inserts (`k` from 0).
    static func writtenRow(_ k: Int) -> WorkoutRow {
        WorkoutRow(id: Int64(Workload.rowCount + 1 + k), title: "Workout session #\(Workload.rowCount + 1 + k)",
                   startedAt: 1000 + Double(k), finishedAt: nil, minutes: 10, calories: 75, isFavorite: false)
    }

    /// Times W10 into `m`. `read` runs on each reader's thread and returns that reader's
    /// checksum (it makes its own context or connection there); `writeBatch` inserts the
    /// rows `first..<first + batch` in one transaction.
    static func measure(
        _ m: inout Measurements, read: @escaping @Sendable (_ reads: Int) throws -> Int64,
        writeBatch: @escaping @Sendable (_ first: Int) throws -> Void
    ) throws {
        let state = LoadState(readers: readerCount)
        let writerDone = DispatchSemaphore(value: 0)
        var started = false
        m.measure(10, { () -> [Int64] in
            started = true
            let readersDone = DispatchGroup()
            Thread.detachNewThread {
                var first = 0
                do {
                    while state.running.load(ordering: .acquiring) > 0 {
                        try writeBatch(first)
                        first += batch
                    }
                } catch {
                    state.failures.withLock { $0.append("writer: \(error)") }
                }
                writerDone.signal()
            }
            for _ in 0..<readerCount {
                readersDone.enter()
                Thread.detachNewThread {
                    do {
                        let sum = try read(readsPerReader)
                        state.sums.withLock { $0.append(sum) }
                    } catch {
                        state.failures.withLock { $0.append("reader: \(error)") }
                    }
                    state.running.subtract(1, ordering: .releasing)
                    readersDone.leave()
                }
            }
            readersDone.wait()
            return state.sums.withLock { $0 }
        }, checksum: { (sums: [Int64]) -> Int64? in sums.count == readerCount ? sums.reduce(0, +) : -1 })
        guard started else { return }
        // After the clock: the writer finishes its transaction.
        writerDone.wait()
        if let failure = state.failures.withLock({ $0.first }) { throw BenchError("W10 failed: \(failure)") }
    }
}

/// What W10's threads share.
private final class LoadState: Sendable {
    /// Readers not done yet: the writer stops at zero.
    let running: Atomic<Int>
    let sums = Mutex<[Int64]>([])
    let failures = Mutex<[String]>([])

    init(readers: Int) { running = Atomic(readers) }
}
