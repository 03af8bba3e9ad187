/// Waits until `condition` holds, checking every 10 ms, for at most `timeout`: for what
/// happens on another thread or process (a background check, a child's commit). The bound is
/// generous because a busy CI machine is slow; the wait ends as soon as the condition holds.
/// The caller asserts the condition afterwards.
///
/// ```swift
/// try await pollUntil { !commits.values.isEmpty }
/// #expect(commits.values == [["t"]])
/// ```
public func pollUntil(
    timeout: Duration = .seconds(10), isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition(), clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
}
