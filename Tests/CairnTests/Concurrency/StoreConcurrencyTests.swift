@testable import Cairn
import Dispatch
import Foundation
import Testing

/// A file store reads on several connections: a read does not wait for another read or for a
/// write in progress, and sees the store as of its start. Each test holds one access open on a
/// thread until the other side is done, and gives up after `patience`: a store that served
/// one access at a time would make the other side wait that long, and the test fails.
@Suite("A file store's reads run beside each other and beside the write")
struct StoreConcurrencyTests {
    static let patience: DispatchTimeInterval = .seconds(5)

    @Test("a context's fetch completes while another reader holds its snapshot open")
    func fetchBesideARead() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let container = try store.container(for: Workout.self)
        try Self.seed(container, count: 3)
        let ((count, fetchEndedDuringRead), titles) = try Self.holding({ otherSideDone in
            try container.read(for: Workout.self) { db in
                (try db.fetchValue(Int.self, sql: #"SELECT COUNT(*) FROM "Workout""#), otherSideDone())
            }
        }, meanwhile: {
            try ModelContext(container).fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        })
        #expect(fetchEndedDuringRead)
        #expect(titles == ["w0", "w1", "w2"])
        #expect(count == 3)
    }

    @Test("a save completes while a read is in progress, and the read keeps its snapshot")
    func saveBesideARead() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let container = try store.container(for: Workout.self)
        try Self.seed(container, count: 2)
        let countSQL = #"SELECT COUNT(*) FROM "Workout""#
        let ((before, savedDuringRead, after), _) = try Self.holding({ otherSideDone in
            try container.read(for: Workout.self) { db in
                (try db.fetchValue(Int.self, sql: countSQL), otherSideDone(), try db.fetchValue(Int.self, sql: countSQL))
            }
        }, meanwhile: {
            let writer = ModelContext(container)
            writer.insert(Workout(title: "new", startedAt: .distantPast, minutes: 1, calories: 0))
            try writer.save()
        })
        #expect(savedDuringRead)
        #expect(before == 2)
        #expect(after == 2)  // the read's snapshot does not move under it
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Workout>()) == 3)
    }

    @Test("a context's fetch completes while a write is in progress, without its uncommitted rows")
    func fetchBesideAWrite() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let container = try store.container(for: Workout.self)
        try Self.seed(container, count: 2)
        let (fetchEndedDuringWrite, during) = try Self.holding({ otherSideDone in
            try container.write(for: Workout.self) { db in
                try db.execute(sql: #"UPDATE "Workout" SET "title" = 'renamed'"#)
                return otherSideDone()
            }
        }, meanwhile: {
            try ModelContext(container).fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        })
        #expect(fetchEndedDuringWrite)
        #expect(during == ["w0", "w1"])
        #expect(try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title) == ["renamed", "renamed"])
    }

    @Test("an in-memory store serves one access at a time: a fetch waits for a write in progress")
    func inMemoryStoreWaits() throws {
        let container = try memoryContainer(for: Workout.self)
        try Self.seed(container, count: 1)
        let writing = DispatchSemaphore(value: 0)
        let holder = OnOwnThread {
            try container.write(for: Workout.self) { db in
                writing.signal()
                try db.execute(sql: #"UPDATE "Workout" SET "title" = 'renamed'"#)
            }
        }
        writing.wait()
        // One connection: the fetch runs after the write, and sees it.
        let titles = try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title)
        try holder.value()
        #expect(titles == ["renamed"])
    }

    /// Runs `access` on a thread of its own and `meanwhile` on this one once `access` is
    /// inside the store. `access` calls the function it is given while still inside: it
    /// returns whether `meanwhile` ended within ``patience``.
    private static func holding<Held: Sendable, Other>(
        _ access: @escaping @Sendable (_ otherSideDone: @Sendable () -> Bool) throws -> Held,
        meanwhile: () throws -> Other
    ) throws -> (Held, Other) {
        let inside = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let holder = OnOwnThread {
            try access {
                inside.signal()
                return finished.wait(timeout: .now() + patience) == .success
            }
        }
        _ = inside.wait(timeout: .now() + patience)  // an access that failed first is reported below
        let other = Result { try meanwhile() }
        finished.signal()
        return (try holder.value(), try other.get())
    }

    private static func seed(_ container: ModelContainer, count: Int) throws {
        let context = ModelContext(container)
        for index in 0..<count {
            context.insert(Workout(title: "w\(index)", startedAt: .distantPast, minutes: index, calories: 0))
        }
        try context.save()
    }
}

/// Runs `body` on a thread of its own: the tests block their thread on semaphores, and the
/// cooperative pool of a 2-core machine has two threads.
private final class OnOwnThread<T: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `result` is written once before `done.signal()` and read after
    // `done.wait()`.
    private var result: Result<T, any Error> = .failure(CancellationError())
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws -> T) {
        Thread.detachNewThread { [self] in
            result = Result { try body() }
            done.signal()
        }
    }

    func value() throws -> T {
        done.wait()
        return try result.get()
    }
}

/// Work started inside `container.write(for:)`'s block that would wait for the block itself
/// fails with an error that says so, instead of hanging.
@Suite("Inside container.write(for:)")
struct WriteBlockReentryTests {
    @Test("a save inside the block throws and the block's transaction rolls back", arguments: [false, true])
    func saveInsideWriteThrows(inMemory: Bool) throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let container = inMemory ? try memoryContainer(for: Workout.self) : try store.container(for: Workout.self)
        let context = ModelContext(container)
        context.insert(Workout(title: "Run", startedAt: .now, minutes: 30, calories: 200))
        let error = #expect(throws: ModelError.self) {
            try container.write(for: Workout.self) { db in
                try db.execute(sql: #"INSERT INTO "Workout" ("title", "startedAt", "minutes", "calories", "isFavorite") VALUES ('Raw', 0, 1, 1, 0)"#)
                try context.save()
            }
        }
        #expect(error?.kind == .storeFailure)
        #expect(error?.message.contains("save after the block returns") == true)
        try context.save()  // after the block, the save goes through
        #expect(try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title) == ["Run"])
    }

    @Test("a fetch inside the block reads on a file store and throws on an in-memory one")
    func fetchInsideWrite() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let file = try store.container(for: Workout.self)
        let fetched = try file.write(for: Workout.self) { _ in try ModelContext(file).fetchCount(FetchDescriptor<Workout>()) }
        #expect(fetched == 0)
        let memory = try memoryContainer(for: Workout.self)
        let error = #expect(throws: ModelError.self) {
            try memory.write(for: Workout.self) { _ in try ModelContext(memory).fetchCount(FetchDescriptor<Workout>()) }
        }
        #expect(error?.message.contains("read through the block's Database") == true)
    }
}
