@testable import Cairn
import Testing

/// Keys whose bits collide on purpose: every key shares its bits with seven others, so lookups
/// and deletions must walk and repair runs.
private struct CollidingKey: IdentityKey, Hashable {
    let value: Int
    var identityBits: UInt64 { UInt64(value / 8) }
}

@Suite("The identity table behind a context")
struct IdentityTableTests {
    @Test("random inserts, replacements and removals answer as Dictionary does", arguments: [1, 2, 3])
    func matchesDictionary(seed: UInt64) {
        var generator = SeededRandom(seed: seed)  // Predicates/PredicateDifferentialTests.swift
        var table = IdentityTable<CollidingKey, Int>()
        var reference: [CollidingKey: Int] = [:]
        for step in 0..<20_000 {
            let key = CollidingKey(value: Int(generator.next() % 600))
            switch generator.next() % 3 {
            case 0, 1:
                table[key] = step
                reference[key] = step
            default:
                #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: key))
            }
            if step % 97 == 0 {
                for probe in 0..<600 {
                    let key = CollidingKey(value: probe)
                    #expect(table[key] == reference[key], "key \(probe) at step \(step)")
                }
            }
        }
        #expect(table.count == reference.count)
        #expect(Set(table.keys.map(\.value)) == Set(reference.keys.map(\.value)))
        #expect(table.values.sorted() == reference.values.sorted())
    }

    @Test("identifiers of two entities with the same primary key are two entries")
    func sameKeyTwoEntities() {
        var table = IdentityTable<PersistentIdentifier, String>()
        let note = PersistentIdentifier.permanent(entityName: "Note", storeIdentifier: "s", primaryKey: 1)
        let folder = PersistentIdentifier.permanent(entityName: "Folder", storeIdentifier: "s", primaryKey: 1)
        let otherStore = PersistentIdentifier.permanent(entityName: "Note", storeIdentifier: "t", primaryKey: 1)
        table[note] = "note"
        table[folder] = "folder"
        table[otherStore] = "other store"
        #expect(table.count == 3)
        #expect(table[note] == "note")
        #expect(table[folder] == "folder")
        #expect(table[otherStore] == "other store")
        table[folder] = nil
        #expect(table[folder] == nil)
        #expect(table[note] == "note")
        #expect(table[otherStore] == "other store")
    }
}
