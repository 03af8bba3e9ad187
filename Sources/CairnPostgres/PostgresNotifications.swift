import CLibPQ
import Foundation

/// One notification received by ``PostgresNotifications``.
public struct PostgresNotification: Sendable, Hashable {
    /// The channel it was sent on.
    public var channel: String
    /// Its payload (empty when none was sent).
    public var payload: String
    /// The process id of the server backend that sent it (`pg_backend_pid()` of the sender).
    public var senderProcessID: Int32
}

/// Listens on a channel over a dedicated connection and hands every notification sent there
/// (`NOTIFY`, `pg_notify`, ``PostgresConnection/notify(channel:payload:)``) to a handler, on
/// the listener's own thread.
///
/// ```swift
/// let listener = try PostgresNotifications(url: url, channel: "cairn_changes") { notification in
///     print(notification.payload)   // "item,tag"
/// }
/// try connection.notify(channel: "cairn_changes", payload: "item,tag")
/// listener.stop()
/// ```
///
/// A notification sent inside a transaction arrives when it commits, and not at all when it
/// rolls back. Keep the value: listening stops with ``stop()`` or when it is released. When
/// the connection breaks, listening stops; ``isListening`` tells.
///
public final class PostgresNotifications: Sendable {
    /// The channel listened on.
    public let channel: String
    private let listener: NotificationListener

    /// Opens a connection, runs `LISTEN` on `channel` and starts delivering.
    ///
    /// - Parameters:
    ///   - url: a `postgresql://` URL (see ``PostgresConnection/init(url:)``).
    ///   - channel: the channel name, any text (it is quoted as an identifier).
    ///   - handler: called on the listener thread for each notification, in the order sent.
    /// - Throws: ``PostgresError`` when the connection or the `LISTEN` fails.
    public init(url: String, channel: String,
                handler: @escaping @Sendable (PostgresNotification) -> Void) throws {
        self.channel = channel
        let connection = try PostgresConnection(url: url)
        let quoted = "\"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try connection.execute(sql: "LISTEN \(quoted)")
        listener = NotificationListener(connection: connection, handler: handler)
        // The thread holds the listener, not this object, so releasing this object stops it.
        let listener = self.listener
        let thread = Thread { listener.listen() }
        thread.name = "cairn.postgres.listen"
        thread.start()
    }

    deinit {
        listener.stop()
    }

    /// Whether notifications are still being delivered (false after ``stop()`` or once the
    /// connection broke).
    public var isListening: Bool { listener.isListening }

    /// Stops listening and waits for the listener thread to end (at most about 100 ms plus a
    /// handler call in progress). Call it from anywhere but a handler.
    public func stop() {
        listener.stop()
    }
}

/// The listener thread's state.
///
/// `@unchecked Sendable`: the connection is used only by the listener thread (after its
/// `LISTEN`, run before the thread starts); the flags shared with other threads are read and
/// written under `lock`.
private final class NotificationListener: @unchecked Sendable {
    private let connection: PostgresConnection
    private let handler: @Sendable (PostgresNotification) -> Void
    private let lock = NSLock()
    private var stopping = false
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    init(connection: PostgresConnection, handler: @escaping @Sendable (PostgresNotification) -> Void) {
        self.connection = connection
        self.handler = handler
    }

    var isListening: Bool { lock.withLock { running && !stopping } }

    func stop() {
        let wasRunning = lock.withLock {
            defer { stopping = true }
            return !stopping
        }
        if wasRunning { finished.wait() }
    }

    /// Waits up to 100 ms at a time for the socket to be readable, so that ``stop()`` is
    /// noticed, then reads and delivers what arrived.
    func listen() {
        defer {
            lock.withLock { running = false }
            finished.signal()
        }
        let handle = connection.handle
        while !lock.withLock({ stopping }) {
            // Delivered first: notifications that arrived with an earlier reply (the LISTEN's)
            // are already read and would not wake `poll`.
            while let notice = PQnotifies(handle) {
                let notification = PostgresNotification(
                    channel: String(cString: notice.pointee.relname),
                    payload: notice.pointee.extra.map { String(cString: $0) } ?? "",
                    senderProcessID: notice.pointee.be_pid)
                PQfreemem(notice)
                handler(notification)
            }
            guard connection.awaitInput(milliseconds: 100) else { return }
        }
    }
}
