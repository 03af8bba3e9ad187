import Dispatch

/// Runs a task's jobs on a thread of its own (a serial dispatch queue, which gets a thread
/// whatever else runs), so that a test's task may block in a synchronous call (a statement
/// that waits on a server) without holding one of the cooperative pool's few threads, which
/// the test's other tasks need to make progress: on a two-core machine two such tasks would
/// otherwise stall every other test.
///
/// ```swift
/// let task = Task(executorPreference: BlockingTaskExecutor()) {
///     try database.read { db in try db.withTaskCancellation { … } }
/// }
/// ```
public final class BlockingTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "cairn.test.blocking-task")

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
