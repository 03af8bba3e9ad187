/// A set of slot numbers: the properties of a model changed since its last save.
///
/// Every setter inserts into it, and a new model sets all its properties: as a `Set<Int>`, each
/// insert hashed its number with SipHash and the first one allocated the set's storage, about
/// 2,000 instructions of a W1 row (callgrind). Slots 0 to 63 are bits of one word here; a model
/// with more properties keeps the rest in a `Set`, empty (and unallocated) for every other model.
struct SlotSet: Sequence, ExpressibleByArrayLiteral, Equatable {
    private var bits: UInt64 = 0
    private var overflow: Set<Int> = []

    init() {}

    init(arrayLiteral slots: Int...) {
        for slot in slots { insert(slot) }
    }

    var isEmpty: Bool { bits == 0 && overflow.isEmpty }

    func contains(_ slot: Int) -> Bool {
        guard let bit = Self.bit(slot) else { return overflow.contains(slot) }
        return bits & bit != 0
    }

    mutating func insert(_ slot: Int) {
        guard let bit = Self.bit(slot) else {
            overflow.insert(slot)
            return
        }
        bits |= bit
    }

    mutating func remove(_ slot: Int) {
        guard let bit = Self.bit(slot) else {
            overflow.remove(slot)
            return
        }
        bits &= ~bit
    }

    /// The slots in increasing order.
    func makeIterator() -> IndexingIterator<[Int]> {
        ((0..<64).filter { bits & (1 << UInt64($0)) != 0 } + overflow.sorted()).makeIterator()
    }

    private static func bit(_ slot: Int) -> UInt64? {
        slot >= 0 && slot < 64 ? 1 << UInt64(slot) : nil
    }
}
