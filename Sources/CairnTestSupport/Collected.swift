import Foundation

/// Values collected from callbacks or concurrent work in a test, safe to append from any
/// thread.
///
/// ```swift
/// let commits = Collected<Set<String>>()
/// let observation = pool.observeCommits { commits.append($0) }
/// #expect(commits.values == [["workout"]])
/// ```
public final class Collected<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every access goes through `lock`.
    private let lock = NSLock()
    private var storage: [Value] = []

    public init() {}

    public func append(_ value: Value) { lock.withLock { storage.append(value) } }
    public var values: [Value] { lock.withLock { storage } }
}
