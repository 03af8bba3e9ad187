import Cairn
import Foundation

/// A fresh store file in a temporary folder, removed by `remove()`.
struct TemporaryStore {
    let folder: URL
    var url: URL { folder.appendingPathComponent("test.store") }

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-\(UUID().uuidString)")
    }

    func container(for types: any PersistentModel.Type...) throws -> ModelContainer {
        try ModelContainer(for: Schema(types), configurations: [ModelConfiguration(url: url)])
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// The file's bytes, to check that a failed operation left it untouched.
    func contents() -> Data? { try? Data(contentsOf: url) }
}

func memoryContainer(for types: any PersistentModel.Type...) throws -> ModelContainer {
    try ModelContainer(for: Schema(types), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
}

/// Collects notifications posted by one object (notification callbacks may run anywhere).
final class NotificationRecorder: @unchecked Sendable {
    // @unchecked Sendable: `notes` is only touched under `lock`; the observers are removed in
    // `stop()`.
    private let lock = NSLock()
    private var notes: [(name: Notification.Name, userInfo: [AnyHashable: Any]?)] = []
    private var tokens: [any NSObjectProtocol] = []

    init(_ names: [Notification.Name], object: AnyObject) {
        for name in names {
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] note in
                guard let self else { return }
                let userInfo = note.userInfo
                self.lock.withLock { self.notes.append((note.name, userInfo)) }
            })
        }
    }

    var recorded: [(name: Notification.Name, userInfo: [AnyHashable: Any]?)] { lock.withLock { notes } }

    func stop() { for token in tokens { NotificationCenter.default.removeObserver(token) } }
}
