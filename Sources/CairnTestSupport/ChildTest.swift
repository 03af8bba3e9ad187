import Foundation

/// Runs one test of the running test binary in a child process: the binary re-executed with a
/// filter that selects it, and `environment` added to this process's.
///
/// For tests of process-wide state that tests running in parallel would disturb or be
/// disturbed by: a heap limit, the count of open file descriptors. The child test is enabled
/// only when its environment variable is set, so it does nothing in the parent's run.
///
/// ```swift
/// let (status, output) = try runChildTest("OutOfMemoryTests/childUnderAHeapLimit",
///                                         environment: ["CAIRN_NOMEM_CHILD_PATH": path])
/// #expect(status == 0, "\(output)")
/// ```
///
/// - Returns: the child's exit status (0 when its test passed) and everything it printed.
public func runChildTest(_ filter: String, environment: [String: String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    // Read to the end before waiting: a child that fills the pipe would otherwise never exit.
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

/// This process's resident memory in KiB, from /proc/self/statm (in pages); -1 where that
/// file cannot be read. For child tests that check the heap stays flat.
public func residentKiB() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}
