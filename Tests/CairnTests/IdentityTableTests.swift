@testable import Cairn
import CairnTestSupport
import Testing

/// Keys whose bits collide on purpose: every key shares its bits with seven others, so lookups
/// and deletions must walk and repair runs.
private struct CollidingKey: IdentityKey, Hashable {
    let value: Int
    var identityBits: UInt64 { UInt64(value / 8) }
}

/// A key that holds an object, so that destroying the key must release it.
private struct BoxedKey: IdentityKey {
    let box: Marker
    var identityBits: UInt64 { UInt64(UInt(bitPattern: ObjectIdentifier(box))) }
    static func == (lhs: BoxedKey, rhs: BoxedKey) -> Bool { lhs.box === rhs.box }
}

private final class Marker {}

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

    @Test("reserving room keeps every entry; insertIfAbsent keeps the value already there")
    func reserveAndInsertIfAbsent() {
        var table = IdentityTable<CollidingKey, Int>()
        for value in 0..<100 { table[CollidingKey(value: value)] = value }
        let before = table
        table.reserveCapacity(5_000)
        #expect((0..<100).allSatisfy { table[CollidingKey(value: $0)] == $0 })
        #expect(table.insertIfAbsent(-1, for: CollidingKey(value: 7)) == 7)
        #expect(table[CollidingKey(value: 7)] == 7)
        #expect(table.insertIfAbsent(1_000, for: CollidingKey(value: 1_000)) == nil)
        #expect(table[CollidingKey(value: 1_000)] == 1_000)
        #expect(table.count == 101)
        #expect(before.count == 100 && before[CollidingKey(value: 1_000)] == nil, "a copy made before does not change")
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

    // The table's teardown skips keys and values that need no destroying (a context's
    // `ObjectIdentifier` keys and values); objects on either side must still be released.
    @Test("a table going away releases the objects its keys and values hold, and only those it holds")
    func releasesWhatItHolds() {
        weak var weakValue: Marker?
        weak var weakKey: Marker?
        weak var removedValue: Marker?
        do {
            var byObject = IdentityTable<ObjectIdentifier, Marker>()
            var byBox = IdentityTable<BoxedKey, Int>()
            let value = Marker(), key = Marker(), removed = Marker()
            weakValue = value
            weakKey = key
            removedValue = removed
            byObject[ObjectIdentifier(value)] = value
            byObject[ObjectIdentifier(removed)] = removed
            byBox[BoxedKey(box: key)] = 1
            let others = (0..<40).map { _ in Marker() }
            for other in others { byObject[ObjectIdentifier(other)] = other }  // grows past one buffer
            byObject[ObjectIdentifier(removed)] = nil
            #expect(byObject.count == 41 && byBox.count == 1)
            _ = (byObject, byBox, others)
        }
        #expect(weakValue == nil, "a value is released with its table")
        #expect(weakKey == nil, "a key's object is released with its table")
        #expect(removedValue == nil, "a removed value was released when it was removed")
    }

    // A context empties its tables in its `deinit` with `removeAll`, specialized for their
    // types; a copy sharing the buffer must keep its entries.
    @Test("removeAll releases every key and value, leaves a usable table, and spares a copy")
    func removeAllReleasesAndSparesCopies() {
        weak var weakValue: Marker?
        weak var weakKey: Marker?
        var byObject = IdentityTable<ObjectIdentifier, Marker>()
        var byBox = IdentityTable<BoxedKey, Int>()
        do {
            let value = Marker(), key = Marker()
            weakValue = value
            weakKey = key
            byObject[ObjectIdentifier(value)] = value
            byBox[BoxedKey(box: key)] = 1
            for other in (0..<40).map({ _ in Marker() }) { byObject[ObjectIdentifier(other)] = other }
        }
        byObject.removeAll()
        byBox.removeAll()
        #expect(weakValue == nil && weakKey == nil, "removeAll released what the tables held")
        #expect(byObject.isEmpty && byBox.isEmpty && byObject.keys.isEmpty)
        let again = Marker()
        byObject[ObjectIdentifier(again)] = again
        #expect(byObject[ObjectIdentifier(again)] === again && byObject.count == 1)

        let kept = Marker()
        var original = IdentityTable<ObjectIdentifier, Marker>()
        original[ObjectIdentifier(kept)] = kept
        let copy = original
        original.removeAll()
        #expect(original.isEmpty)
        #expect(copy.count == 1 && copy[ObjectIdentifier(kept)] === kept, "the copy keeps its entries")
    }
}
