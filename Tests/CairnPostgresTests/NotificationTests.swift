import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL LISTEN/NOTIFY", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresNotificationTests {
    /// Waits up to 5 s for `count` notifications.
    func wait(for count: Int, in received: Locked<[PostgresNotification]>) async throws {
        for _ in 0..<500 where received.withLock({ $0.count }) < count {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("Notifications from another connection reach the listener in order, after commit only")
    func notifyBetweenConnections() async throws {
        let url = try #require(TestServer.url)
        let channel = "cairn changes " + UUID().uuidString
        let received = Locked<[PostgresNotification]>([])
        let listener = try PostgresNotifications(url: url, channel: channel) { notification in
            received.withLock { $0.append(notification) }
        }
        defer { listener.stop() }
        #expect(listener.isListening)
        let sender = try PostgresConnection(url: url)
        try sender.notify(channel: channel, payload: "item")
        struct Abort: Error {}
        try? sender.inTransaction {
            try sender.notify(channel: channel, payload: "rolled back")
            throw Abort()
        }
        try sender.inTransaction {
            try sender.notify(channel: channel, payload: "item,tag")
            try sender.notify(channel: "another " + channel, payload: "elsewhere")
        }
        try sender.notify(channel: channel)
        try await wait(for: 3, in: received)
        try await Task.sleep(for: .milliseconds(100))
        let pid = try #require(integer(try sender.fetchAll(sql: "SELECT pg_backend_pid()")))
        let notifications = received.withLock { $0 }
        #expect(notifications.map(\.payload) == ["item", "item,tag", ""])
        #expect(notifications.allSatisfy { $0.channel == channel && Int64($0.senderProcessID) == pid })
    }

    @Test("stop() ends delivery")
    func stop() async throws {
        let url = try #require(TestServer.url)
        let channel = "cairn_" + UUID().uuidString
        let received = Locked<[PostgresNotification]>([])
        let listener = try PostgresNotifications(url: url, channel: channel) { n in received.withLock { $0.append(n) } }
        let sender = try PostgresConnection(url: url)
        try sender.notify(channel: channel, payload: "one")
        try await wait(for: 1, in: received)
        listener.stop()
        #expect(!listener.isListening)
        try sender.notify(channel: channel, payload: "two")
        try await Task.sleep(for: .milliseconds(300))
        #expect(received.withLock { $0.map(\.payload) } == ["one"])
    }
}
