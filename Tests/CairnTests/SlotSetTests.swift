@testable import Cairn
import CairnTestSupport
import Testing

@Suite("The set of a model's changed slots")
struct SlotSetTests {
    @Test("a model's set of changed slots answers as Set<Int> does, past 64 slots too")
    func slotSetMatchesSet() {
        var generator = SeededRandom(seed: 7)
        var slots = SlotSet()
        var reference = Set<Int>()
        for _ in 0..<5_000 {
            let slot = Int(generator.next() % 150)
            if generator.next() % 3 == 0 {
                slots.remove(slot)
                reference.remove(slot)
            } else {
                slots.insert(slot)
                reference.insert(slot)
            }
            #expect(slots.contains(slot) == reference.contains(slot))
            #expect(slots.isEmpty == reference.isEmpty)
        }
        #expect(Array(slots) == reference.sorted())
        #expect((0..<150).allSatisfy { slots.contains($0) == reference.contains($0) })
        #expect(([3, 70] as SlotSet).map { $0 } == [3, 70])
        #expect(SlotSet().isEmpty && !([64] as SlotSet).isEmpty)
    }
}
