import Foundation

/// Fetches stop when their task is cancelled: a fetch in a cancelled task throws
/// `CancellationError` before reading anything, and a statement running when the task is
/// cancelled is interrupted (see `Database.withTaskCancellation`, and
/// `PostgresConnection.withTaskCancellation` on a server). Only fetches: faulting a
/// property in or saving is not interrupted, so a model never reads as empty because its task
/// was cancelled.
///
/// The scope is per thread: a fetch runs its statements on the thread that called it.
enum FetchCancellation {
    /// Whether the current thread is inside a fetch.
    static var isActive: Bool { depth > 0 }

    /// How many fetches the current thread is inside, in a POSIX thread-specific value.
    /// `Thread.current.threadDictionary` did the same through an `NSMutableDictionary` keyed
    /// by an `NSString`: about 38,000 instructions per fetch, a third of a one-row `fetch`
    /// (callgrind, W5). It stays the fallback for a process that has run out of keys.
    fileprivate static var depth: Int {
        get {
            guard let depthKey else { return (Thread.current.threadDictionary[fallbackKey] as? Int) ?? 0 }
            return Int(bitPattern: pthread_getspecific(depthKey))
        }
        set {
            guard let depthKey else {
                Thread.current.threadDictionary[fallbackKey] = newValue == 0 ? nil : newValue
                return
            }
            pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: newValue))
        }
    }

    /// The key of that value, made once per process and kept to its end; no destructor, since
    /// the value is a count, not memory. `nil` when `pthread_key_create` fails (the process
    /// already holds `PTHREAD_KEYS_MAX` keys).
    private static let depthKey: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()
    private static let fallbackKey = "Cairn.FetchCancellation.depth"

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
