@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// A storage's `deinit` releases a text slot in place, as the `String` at the slot's start
/// (``SlotLayout``). A release too many crashes (every fetch test frees such storages); one too
/// few leaks the text, which only the heap shows. The process's resident memory is shared with
/// the tests running beside it, so the count runs in a child (as ResourceLeakTests does).
@Suite struct SlotReleaseTests {
    static let childVariable = "CAIRN_SLOT_RELEASE_CHILD"

    @Test("this toolchain lays a text slot out with its String first, so the deinit's in-place release runs")
    func textSlotsBeginWithTheirString() {
        #expect(SlotLayout.textAtStart)
    }

    /// Makes and frees `count` storages, each holding three 32 KiB texts of its own in the
    /// three text cases (a fetched `String`, a fetched `String?`, a to-one key's raw text) and
    /// one boxed in `.value`.
    static func churn(_ count: Int) {
        let entity = Schema.Entity.of(Jotting.self)
        let identifier = PersistentIdentifier.permanent(
            scope: IdentifierScope(entityName: "Jotting", storeIdentifier: nil), primaryKey: 1)
        let filler = String(repeating: "text kept on the heap ", count: 1_490)
        for index in 0..<count {
            let storage = ModelStorage.stored(entity: entity, identifier: identifier)
            storage.slots[0] = .primitive(.string(filler + "a\(index)"))
            storage.slots[1] = .primitive(.optionalString(filler + "b\(index)"))
            storage.slots[2] = .raw(.text(filler + "c\(index)"))
            storage.slots[3] = .value(filler + "d\(index)")
            storage.slots[4] = .primitive(.optionalString(nil))
        }
    }

    @Test("storages freed one after another give their text back: the heap stays flat")
    func freedStoragesGiveTheirTextBack() throws {
        let (status, output) = try runChildTest(
            "SlotReleaseTests/childChurnsStorages", environment: [Self.childVariable: "1"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("Test childChurnsStorages() passed"), "\(output)")
    }

    /// The child's entry point: runs only in the re-executed process.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func childChurnsStorages() {
        Self.churn(100)
        let before = residentKiB()
        // A leak of the in-place release would keep 4,000 × 4 × 32 KiB: 500 MiB.
        Self.churn(4_000)
        let grown = residentKiB() - before
        #expect(before > 0)
        #expect(grown < 64 * 1024, "resident memory grew by \(grown) KiB")
    }
}
