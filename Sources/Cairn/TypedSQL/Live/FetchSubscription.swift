import Foundation

/// The observation a `load(_:)` of `@FetchAll`, `@FetchOne` or `@Fetch` started, as
/// SQLiteData returns it: awaiting ``task`` ties the observation to the awaiting task.
///
/// ```swift
/// // In a task that ends when its screen goes away:
/// try await $reminders.load(Reminder.where { !$0.isCompleted }).task
/// // … the rows follow the database until the task is cancelled; then they keep their last value.
/// ```
public struct FetchSubscription: Sendable {
    let stop: @Sendable () -> Void
    private let running = RunningTask()

    init(stop: @escaping @Sendable () -> Void) {
        self.stop = stop
    }

    /// Suspends until the awaiting task is cancelled (or ``cancel()`` is called), then stops
    /// the observation and throws `CancellationError`.
    public var task: Void {
        get async throws {
            let stop = self.stop
            let waiting = Task {
                try await withTaskCancellationHandler {
                    while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
                } onCancel: {
                    stop()
                }
            }
            running.set(waiting)  // cancels it at once if cancel() came first
            try await withTaskCancellationHandler { try await waiting.value } onCancel: { waiting.cancel() }
        }
    }

    /// Stops the observation: the wrapper keeps its last value until the next `load`, and an
    /// awaited ``task`` (now or later) ends. Unlike SQLiteData's, it also stops an
    /// observation whose `task` is not being awaited.
    public func cancel() {
        running.cancel()
        stop()
    }
}

/// The tasks ``FetchSubscription/task`` is waiting in, so ``FetchSubscription/cancel()`` can
/// end them, and whether it was called (a `task` awaited after it ends at once).
/// `@unchecked Sendable`: `tasks` and `cancelled` are only read and written under `lock`.
private final class RunningTask: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [Task<Void, any Error>] = []
    private var cancelled = false

    func set(_ task: Task<Void, any Error>) {
        let cancelNow = lock.withLock { () -> Bool in
            tasks.append(task)
            return cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let running = lock.withLock { () -> [Task<Void, any Error>] in
            cancelled = true
            return tasks
        }
        for task in running { task.cancel() }
    }
}
