import CairnSQLite
import CairnTestSupport
import Foundation
import Testing

/// Commits made by another connection to the same file (another queue or pool, another
/// process) reach a queue's or pool's commit observers, with every table named.
@Suite struct OthersCommitsTests {
    static let childPathVariable = "CAIRN_OTHERS_COMMITS_CHILD_PATH"

    static func configuration(polling interval: Duration? = .milliseconds(20)) -> Configuration {
        var configuration = Configuration()
        configuration.othersCommitsPollingInterval = interval
        return configuration
    }

    @Test func theCheckNamesEveryTableAfterAnotherConnectionsCommitOnly() throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let mine = try Database(path: temp.path)
        let other = try Database(path: temp.path)
        try mine.execute(sql: "CREATE TABLE t (x); CREATE TABLE u (y)")
        var traced: [String] = []
        mine.add { traced.append($0.sql) }
        #expect(mine.tablesCommittedByOthers() == nil)  // the starting point
        try other.execute(sql: "INSERT INTO t VALUES (1)")
        #expect(mine.tablesCommittedByOthers() == ["t", "u"])
        #expect(mine.tablesCommittedByOthers() == nil)
        try mine.execute(sql: "INSERT INTO u VALUES (2)")
        #expect(mine.tablesCommittedByOthers() == nil)  // its own commit is not another's
        #expect(traced == ["INSERT INTO u VALUES (2)"])  // the checks themselves are not traced
    }

    @Test(arguments: [false, true])
    func anotherQueuesCommitReachesTheObservers(pool: Bool) async throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let observed: any DatabaseWriter = pool
            ? try DatabasePool(path: temp.path, configuration: Self.configuration())
            : try DatabaseQueue(path: temp.path, configuration: Self.configuration())
        try await observed.write { db in try db.execute(sql: "CREATE TABLE t (x); CREATE TABLE u (y)") }
        let commits = Collected<Set<String>>()
        let token = observed.observeCommits { commits.append($0) }
        let other = try DatabaseQueue(path: temp.path)
        try await other.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        try await pollUntil { !commits.values.isEmpty }
        // Every table is named; opening the other connection commits nothing, so one report.
        #expect(commits.values == [["t", "u"]])
        withExtendedLifetime(token) {}
    }

    /// The check's timer starts with the first observer, but its starting point is taken when
    /// the queue opens: a commit made in between is reported, not missed.
    @Test func aCommitBeforeTheFirstObserverIsReportedToIt() async throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let observed = try DatabaseQueue(path: temp.path, configuration: Self.configuration())
        try await observed.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        let other = try DatabaseQueue(path: temp.path)
        try await other.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        let commits = Collected<Set<String>>()
        let token = observed.observeCommits { commits.append($0) }
        try await pollUntil { !commits.values.isEmpty }
        #expect(commits.values == [["t"]])
        withExtendedLifetime(token) {}
    }

    @Test func ownCommitsAreReportedOnceAndTheCheckCanBeTurnedOff() async throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let observed = try DatabaseQueue(path: temp.path, configuration: Self.configuration())
        let unpolled = try DatabaseQueue(path: temp.path, configuration: Self.configuration(polling: nil))
        try await observed.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        let commits = Collected<Set<String>>()
        let unpolledCommits = Collected<Set<String>>()
        let tokens = [observed.observeCommits { commits.append($0) }, unpolled.observeCommits { unpolledCommits.append($0) }]
        try await observed.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        // Many polling intervals: the commit hook reported it; the check must not again.
        try await Task.sleep(for: .milliseconds(300))
        #expect(commits.values == [["t"]])
        #expect(unpolledCommits.values.isEmpty)  // another connection's commit, not checked for
        withExtendedLifetime(tokens) {}
    }

    @Test func anotherProcesssCommitReachesTheObservers() async throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let observed = try DatabasePool(path: temp.path, configuration: Self.configuration())
        try await observed.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        let commits = Collected<Set<String>>()
        let token = observed.observeCommits { commits.append($0) }
        let (status, output) = try runChildTest("OthersCommitsTests/childInserts", environment: [Self.childPathVariable: temp.path])
        #expect(status == 0, "\(output.suffix(2_000))")
        try await pollUntil { !commits.values.isEmpty }
        #expect(commits.values.first == ["t"])
        #expect(try await observed.read { db in try db.fetchCount(sql: "SELECT * FROM t") } == 3)
        withExtendedLifetime(token) {}
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[childPathVariable] != nil))
    func childInserts() throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.childPathVariable])
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1), (2), (3)") }
    }
}
