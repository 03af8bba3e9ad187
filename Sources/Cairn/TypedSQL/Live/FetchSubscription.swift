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
            running.set(waiting)
            try await withTaskCancellationHandler { try await waiting.value } onCancel: { waiting.cancel() }
        }
    }

    /// Stops the observation: the wrapper keeps its last value until the next `load`.
    public func cancel() {
        running.cancel()
        stop()
    }
}

/// The task ``FetchSubscription/task`` is waiting in, so ``FetchSubscription/cancel()`` can
/// end it. `@unchecked Sendable`: `task` is only read and written under `lock`.
private final class RunningTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, any Error>?

    func set(_ task: Task<Void, any Error>) { lock.withLock { self.task = task } }
    func cancel() { lock.withLock { task }?.cancel() }
}
