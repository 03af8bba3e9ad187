/// A key that hashes with a few instructions: an object's address, a row's primary key.
protocol IdentityKey: Equatable {
    /// Bits that tell keys apart (equal keys have equal bits; unequal keys may share them).
    var identityBits: UInt64 { get }
}

extension ObjectIdentifier: IdentityKey {
    var identityBits: UInt64 { UInt64(UInt(bitPattern: self)) }
}

extension PersistentIdentifier: IdentityKey {
    /// The primary key or temporary number; identifiers of other entities with the same number
    /// share the bits and are told apart by `==`.
    var identityBits: UInt64 {
        switch id.key {
        case .permanent(let key): UInt64(bitPattern: key)
        case .temporary(let number): number | (1 << 63)
        // A custom store's key: its text's number, apart from the primary keys by a bit.
        case .custom(let number): number | (1 << 62)
        }
    }
}

/// A per-process random offset mixed into every hash, so that which keys collide cannot be
/// planned from outside (primary keys can come from a file someone else wrote).
private let identityTableSeed = UInt64.random(in: .min ... .max)

/// The hash table behind a context's identity map and its registered models.
///
/// A context looks up and registers a model for every fetched row. With `Dictionary`, each of
/// those operations hashes its key with seeded SipHash (a few hundred instructions); here a key
/// is mixed with one multiply-xorshift round (the splitmix64 finalizer) and found by linear
/// probing. Deletion shifts later entries back, so there are no tombstones.
///
/// Each slot's mixed hash sits in a plain `UInt64` buffer (0 marks an empty slot): probing reads
/// only those, and a key is compared (and its strings touched) only when the hashes match. Keys
/// and values live in raw buffers initialized only where a hash is set, so growing moves them
/// bit for bit instead of copying `Optional`s through their value witnesses.
struct IdentityTable<Key: IdentityKey, Value> {
    private var buffer = Buffer(capacity: 0)
    /// The process's seed, read once: a global `let` is read through `swift_once`, twice per
    /// fetched row.
    private let seed = identityTableSeed

    var count: Int { buffer.count }
    var isEmpty: Bool { buffer.count == 0 }

    /// The value for `key`; setting `nil` removes it.
    subscript(key: Key) -> Value? {
        get {
            guard let index = buffer.find(key, tag: tag(of: key)) else { return nil }
            return buffer.values[index]
        }
        set {
            if let newValue { insert(newValue, for: key) } else { removeValue(forKey: key) }
        }
    }

    var keys: [Key] { buffer.occupied.map { buffer.keys[$0] } }

    var values: [Value] { buffer.occupied.map { buffer.values[$0] } }

    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let index = buffer.find(key, tag: tag(of: key)) else { return nil }
        makeUnique()
        return buffer.remove(at: index)
    }

    private mutating func insert(_ value: Value, for key: Key) {
        let tag = tag(of: key)
        makeUnique()
        if let index = buffer.find(key, tag: tag) {
            buffer.values[index] = value
            return
        }
        reserveCapacity(buffer.count + 1)
        buffer.place(tag: tag, key: key, value: value)
    }

    /// Stores `value` for `key` unless the key has a value already, which is returned and kept.
    ///
    /// The key is consumed: a caller's last use moves it into the table, where a borrowed key
    /// was copied in and the caller's released (a fetch registers one a row).
    mutating func insertIfAbsent(_ value: Value, for key: consuming Key) -> Value? {
        let tag = tag(of: key)
        makeUnique()
        if let index = buffer.find(key, tag: tag) { return buffer.values[index] }
        reserveCapacity(buffer.count + 1)
        buffer.place(tag: tag, key: key, value: value)
        return nil
    }

    /// Stores `value` for a key the caller knows is absent (a new object's identifier),
    /// without looking for it first: a fetch registers one a row. The value is consumed: a
    /// fetch hands over a reference it took earlier, and a borrowed one was retained again
    /// here.
    mutating func insertNew(_ value: consuming Value, for key: Key) {
        assert(buffer.find(key, tag: tag(of: key)) == nil, "insertNew: the key is present")
        let tag = tag(of: key)
        makeUnique()
        reserveCapacity(buffer.count + 1)
        buffer.place(tag: tag, key: key, value: value)
    }

    /// Makes room for `count` entries at once: a fetch that registers many rows grows the
    /// table once instead of doubling it (and moving every entry) along the way.
    mutating func reserveCapacity(_ count: Int) {
        // At most half full, so runs stay short.
        guard count * 2 > buffer.capacity else { return }
        var capacity = Swift.max(16, buffer.capacity * 2)
        while count * 2 > capacity { capacity *= 2 }
        let grown = Buffer(capacity: capacity)
        makeUnique()
        buffer.moveAll(into: grown)
        buffer = grown
    }

    /// Empties the table. Called where the key and value types are known, so that the loop
    /// is specialized for them: the buffer's `deinit` is generic, and destroyed each entry
    /// through a runtime call. In SwiftData W6, tearing down 100 contexts of 16,000 models
    /// took 345.2M instructions through the `deinit` and takes 148.3M through this (callgrind):
    /// about 215 → 93 a model, for its two entries.
    mutating func removeAll() {
        guard isKnownUniquelyReferenced(&buffer) else {
            buffer = Buffer(capacity: 0)
            return
        }
        buffer.removeAll()
    }

    /// Copy on write: a copy of the table shares its buffer until one of them changes.
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&buffer) else { return }
        buffer = buffer.copy()
    }

    /// The key's mixed hash, never 0 (the empty mark); its low bits are the home slot.
    private func tag(of key: Key) -> UInt64 {
        var bits = key.identityBits &+ seed
        bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
        bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
        bits ^= bits >> 31
        return bits == 0 ? 1 : bits
    }

    /// The slots. Invariant: `keys[i]` and `values[i]` are initialized exactly where
    /// `tags[i] != 0`.
    private final class Buffer {
        let capacity: Int
        private(set) var count = 0
        let tags: UnsafeMutablePointer<UInt64>
        let keys: UnsafeMutablePointer<Key>
        let values: UnsafeMutablePointer<Value>

        /// `capacity` is 0 or a power of two.
        init(capacity: Int) {
            self.capacity = capacity
            tags = .allocate(capacity: capacity)
            tags.initialize(repeating: 0, count: capacity)
            keys = .allocate(capacity: capacity)
            values = .allocate(capacity: capacity)
        }

        deinit {
            // A buffer left behind by growing is empty: no slot to visit. This code is not
            // specialized, so each `deinitialize` is a runtime call (about 60 instructions);
            // keys and values that need no destroying (`ObjectIdentifier`) skip it.
            let destroysKeys = !_isPOD(Key.self), destroysValues = !_isPOD(Value.self)
            if count > 0, destroysKeys || destroysValues {
                for index in 0..<capacity where tags[index] != 0 {
                    if destroysKeys { (keys + index).deinitialize(count: 1) }
                    if destroysValues { (values + index).deinitialize(count: 1) }
                }
            }
            tags.deallocate()
            keys.deallocate()
            values.deallocate()
        }

        var occupied: [Int] { (0..<capacity).filter { tags[$0] != 0 } }

        /// Destroys every entry; the buffer stays allocated, empty.
        func removeAll() {
            guard count > 0 else { return }
            for index in 0..<capacity where tags[index] != 0 {
                // Moved out and dropped: `deinitialize(count:)` destroyed an identifier through
                // an outlined destroy and its value witness (about 41 instructions a key,
                // callgrind SwiftData W6), where dropping it releases its one reference.
                _ = (keys + index).move()
                _ = (values + index).move()
                tags[index] = 0
            }
            count = 0
        }

        func find(_ key: Key, tag: UInt64) -> Int? {
            guard capacity > 0 else { return nil }
            let mask = capacity - 1
            var index = Int(truncatingIfNeeded: tag) & mask
            while tags[index] != 0 {
                if tags[index] == tag, keys[index] == key { return index }
                index = (index + 1) & mask
            }
            return nil
        }

        /// Puts a new entry in the first free slot of its run (there is one: the table is at
        /// most half full).
        func place(tag: UInt64, key: consuming Key, value: consuming Value) {
            let mask = capacity - 1
            var index = Int(truncatingIfNeeded: tag) & mask
            while tags[index] != 0 { index = (index + 1) & mask }
            tags[index] = tag
            (keys + index).initialize(to: key)
            (values + index).initialize(to: value)
            count += 1
        }

        /// Removes the entry at `index`, then shifts back every later entry of the run that
        /// would no longer be reachable from its home slot across the hole.
        func remove(at index: Int) -> Value {
            (keys + index).deinitialize(count: 1)
            let removed = (values + index).move()
            tags[index] = 0
            count -= 1
            let mask = capacity - 1
            var hole = index
            var next = (hole + 1) & mask
            while tags[next] != 0 {
                let home = Int(truncatingIfNeeded: tags[next]) & mask
                let reachable = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
                if !reachable {
                    tags[hole] = tags[next]
                    (keys + hole).moveInitialize(from: keys + next, count: 1)
                    (values + hole).moveInitialize(from: values + next, count: 1)
                    tags[next] = 0
                    hole = next
                }
                next = (next + 1) & mask
            }
            return removed
        }

        /// Moves every entry into `other` (empty, larger) and leaves this buffer empty.
        func moveAll(into other: Buffer) {
            let mask = other.capacity - 1
            for index in 0..<capacity where tags[index] != 0 {
                var target = Int(truncatingIfNeeded: tags[index]) & mask
                while other.tags[target] != 0 { target = (target + 1) & mask }
                other.tags[target] = tags[index]
                (other.keys + target).moveInitialize(from: keys + index, count: 1)
                (other.values + target).moveInitialize(from: values + index, count: 1)
                other.count += 1
                tags[index] = 0
            }
            count = 0
        }

        func copy() -> Buffer {
            let copy = Buffer(capacity: capacity)
            for index in occupied {
                copy.tags[index] = tags[index]
                (copy.keys + index).initialize(to: keys[index])
                (copy.values + index).initialize(to: values[index])
            }
            copy.count = count
            return copy
        }
    }
}
