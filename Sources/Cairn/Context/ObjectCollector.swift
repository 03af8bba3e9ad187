/// The objects a fetch's row loop makes, collected in a buffer of its own and handed over as
/// one array at the end.
///
/// Appending to an `[AnyObject]` in the row loop called two of the standard library's
/// out-of-line array functions a row, and tested the array's uniqueness; here an append is a
/// compare and a store (callgrind SwiftData W6: 17,796.0M -> 17,731.9M, 40 a row). The
/// collector is not copyable, so its buffer has one owner: a fetch that throws part way
/// releases what it collected when the collector goes out of scope.
struct ObjectCollector: ~Copyable {
    private var base: UnsafeMutablePointer<AnyObject>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ object: consuming AnyObject) {
        if count == capacity { grow() }
        (base + count).initialize(to: object)
        count += 1
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<AnyObject>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// The collected objects as an array of `T`, which every one of them must be.
    ///
    /// `T` is a class, so `[AnyObject]` and `[T]` have the same representation: the standard
    /// library's own array casts of class elements end in this bit cast after checking each
    /// element, which the caller has done by making them.
    consuming func array<T: AnyObject>(of type: T.Type) -> [T] {
        let count = count, base = base
        discard self
        // No rows: the empty array, without `init(unsafeUninitializedCapacity:)`, which stores
        // the count even into the shared empty-array storage (zero over zero, but a write that
        // ThreadSanitizer sees racing with other threads' reads of that storage).
        guard count > 0 else {
            base.deallocate()
            return []
        }
        let objects = [AnyObject](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let start = buffer.baseAddress { start.moveInitialize(from: base, count: count) }
            initialized = count
        }
        base.deallocate()
        return unsafeBitCast(objects, to: [T].self)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
