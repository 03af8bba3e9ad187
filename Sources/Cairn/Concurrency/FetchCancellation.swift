import Foundation

/// Fetches stop when their task is cancelled: a fetch in a cancelled task throws
/// `CancellationError` before reading anything, and a statement running when the task is
/// cancelled is interrupted (see `Database.withTaskCancellation`). Only fetches: faulting a
/// property in or saving is not interrupted, so a model never reads as empty because its task
/// was cancelled.
///
/// The scope is per thread: a fetch runs its statements on the thread that called it.
enum FetchCancellation {
    private static let key = "Cairn.FetchCancellation.depth"

    /// Whether the current thread is inside a fetch.
    static var isActive: Bool { depth > 0 }

    fileprivate static var depth: Int {
        get { (Thread.current.threadDictionary[key] as? Int) ?? 0 }
        set { Thread.current.threadDictionary[key] = newValue == 0 ? nil : newValue }
    }

    /// The scope of one fetch; `end()` closes it.
    struct Scope {
        func end() { FetchCancellation.depth -= 1 }
    }
}

extension ModelContext {
    /// Starts a fetch: merges what others committed, fails with `CancellationError` when the
    /// task is cancelled, and makes the fetch's statements interruptible by cancellation.
    func beginFetch() throws -> FetchCancellation.Scope {
        if Task.isCancelled { throw CancellationError() }
        mergeExternalChanges()
        FetchCancellation.depth += 1
        return FetchCancellation.Scope()
    }
}
