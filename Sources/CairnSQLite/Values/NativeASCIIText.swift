import Foundation
import Synchronization

/// Building a `String` of 16 to 63 ASCII bytes straight from SQLite's text, in the standard
/// library's own native storage.
///
/// Text longer than 15 bytes lives in a heap object of the standard library (`__StringStorage`:
/// a header, the UTF-8 bytes at offset 32, a NUL). `String(decoding:as:)` makes one in six
/// out-of-line steps: it checks for ASCII, picks the unchecked path, computes the capacity,
/// allocates, copies with a generic loop and sets the header, about 120 instructions more than
/// the allocation and the copy themselves. A fetch of text columns pays that for most of its
/// names, addresses and dates (W6 makes 7.9 million such strings a run), where C's `strdup`
/// does a `strlen`, a `malloc` and a `memcpy`. So for ASCII text of 16 to 63 bytes (which
/// needs no validation: every byte below 0x80 is a whole scalar), Cairn allocates the object
/// with the runtime's `swift_allocObject` and writes the header and bytes itself: the
/// `String`'s two words, and the storage's capacity and count words, exactly as the standard
/// library writes them.
///
/// The two words of a `String` are part of the standard library's ABI (its inlinable code
/// reads them in every client); the storage's header words are not promised. So nothing is
/// assumed: ``NativeStringMaker/shared`` is made once per process only after it has asked the
/// standard library for a string of every length from 16 to 63 and found each one laid out as
/// the maker would lay it out (flags, object bits, class, capacity, count, bytes, terminator),
/// and after a string it made has compared, hashed and grown in place as the standard
/// library's does. If any of that differs (another toolchain, another platform) or the runtime
/// function cannot be found, `shared` is nil and all text goes through `String(decoding:as:)`.
/// From 64 bytes the standard library also reserves a word for breadcrumbs (its index cache);
/// such text always takes the public path. `NativeASCIITextTests` checks the strings made
/// against the standard library's: value, hash, UTF-8, C string, growth, and that they are
/// freed.
@usableFromInline
struct NativeStringMaker: @unchecked Sendable {
    // @unchecked: the two pointers are to the runtime's `swift_allocObject` and to the class
    // metadata of the standard library's string storage, both immutable for the life of the
    // process; the maker itself is never mutated.

    /// `swift_allocObject(metadata, size, alignmentMask)`: a new object with its class set and
    /// a reference count of one, or (never, in practice: the runtime stops the process when
    /// out of memory) nil.
    @usableFromInline
    typealias AllocateObject = @convention(c) (UnsafeRawPointer, Int, Int) -> UnsafeMutableRawPointer?

    @usableFromInline let metadata: UnsafeRawPointer
    @usableFromInline let allocateObject: AllocateObject

    @usableFromInline
    init(metadata: UnsafeRawPointer, allocateObject: AllocateObject) {
        (self.metadata, self.allocateObject) = (metadata, allocateObject)
    }

    /// The lengths made here: above the 15 bytes of an inline string, below the 64 from which
    /// the storage carries breadcrumbs.
    @usableFromInline static let lengths = 16...63
    /// Where a native string's code units start in its storage object (the standard library's
    /// `_StringObject.nativeBias`).
    @inlinable static var bytesOffset: Int { 32 }
    /// The flags of a native ASCII string's count word: ASCII, NFC, natively stored, tail
    /// allocated.
    @inlinable static var asciiFlags: UInt64 { 0xF000_0000_0000_0000 }

    /// The capacity the standard library gives `count` bytes below 64: room for the bytes and
    /// the terminator, rounded up to 16.
    @inlinable @inline(__always)
    static func capacity(for count: Int) -> Int { (count &+ 16) & ~15 }

    /// The maker, or nil where this standard library lays strings out otherwise.
    @usableFromInline static let shared: NativeStringMaker? = verified()

    /// ``shared``'s two pointers, published for reads without a `swift_once`: a `static let`
    /// made by a function is reached through `swift_once` on every read, about 10
    /// instructions, once per string here (7.9 million times in W6). Atomics with a constant
    /// initial value are laid out initialized and read with a load. `publishedMetadata` is 0
    /// until the check has run and 1 if it failed; it is stored after `publishedAllocator`,
    /// with release ordering, so a reader that sees it sees the allocator too.
    @usableFromInline static let publishedMetadata = Atomic<UInt>(0)
    @usableFromInline static let publishedAllocator = Atomic<UInt>(0)

    /// ``shared``, read through the published pointers.
    @inlinable @inline(__always)
    static var current: NativeStringMaker? {
        let metadataBits = publishedMetadata.load(ordering: .acquiring)
        guard metadataBits > 1 else { return metadataBits == 0 ? publish() : nil }
        guard let metadata = UnsafeRawPointer(bitPattern: metadataBits),
              let allocator = UnsafeRawPointer(bitPattern: publishedAllocator.load(ordering: .relaxed))
        else { return nil }
        return NativeStringMaker(metadata: metadata, allocateObject: unsafeBitCast(allocator, to: AllocateObject.self))
    }

    /// Runs the check (once, through ``shared``) and publishes its answer.
    @usableFromInline
    static func publish() -> NativeStringMaker? {
        guard let maker = shared else {
            publishedMetadata.store(1, ordering: .releasing)
            return nil
        }
        publishedAllocator.store(UInt(bitPattern: unsafeBitCast(maker.allocateObject, to: UnsafeRawPointer.self)),
                                 ordering: .relaxed)
        publishedMetadata.store(UInt(bitPattern: maker.metadata), ordering: .releasing)
        return maker
    }

    /// A `String` of the `count` ASCII bytes at `bytes`, `count` within ``lengths``.
    @inlinable @inline(__always)
    func make(_ bytes: UnsafeRawPointer, count: Int) -> String? {
        let capacity = Self.capacity(for: count)
        guard let object = allocateObject(metadata, Self.bytesOffset &+ capacity, 7) else { return nil }
        let countAndFlags = Self.asciiFlags | UInt64(truncatingIfNeeded: count)
        object.storeBytes(of: UInt64(truncatingIfNeeded: capacity), toByteOffset: 16, as: UInt64.self)
        object.storeBytes(of: countAndFlags, toByteOffset: 24, as: UInt64.self)
        let start = object + Self.bytesOffset
        start.copyMemory(from: bytes, byteCount: count)
        start.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
        // The object's one reference passes to the `String` moved out of the buffer.
        return withUnsafeTemporaryAllocation(of: String.self, capacity: 1) { buffer in
            guard let string = buffer.baseAddress else { return nil }
            let words = UnsafeMutableRawPointer(string)
            words.storeBytes(of: countAndFlags, as: UInt64.self)
            words.storeBytes(of: UInt64(UInt(bitPattern: object)), toByteOffset: 8, as: UInt64.self)
            return string.move()
        }
    }
}

extension NativeStringMaker {
    /// The maker, once the standard library's strings of every length it makes have been found
    /// laid out as it lays them out, and a string it made behaves as theirs; otherwise nil.
    static func verified() -> NativeStringMaker? {
        #if _pointerBitWidth(_64) && _endian(little)
        // RTLD_DEFAULT: the symbol wherever the process loaded it (libswiftCore).
        guard let symbol = dlsym(nil, "swift_allocObject") else { return nil }
        let allocateObject = unsafeBitCast(symbol, to: AllocateObject.self)
        var metadata: UnsafeRawPointer?
        for count in lengths {
            let bytes = sampleBytes(count: count)
            let expected = String(decoding: bytes, as: UTF8.self)
            guard let layout = storageLayout(of: expected, count: count, bytes: bytes) else { return nil }
            if metadata == nil { metadata = layout }
            guard metadata == layout else { return nil }
        }
        guard let metadata else { return nil }
        let maker = NativeStringMaker(metadata: metadata, allocateObject: allocateObject)
        for count in lengths {
            let bytes = sampleBytes(count: count)
            guard maker.behavesAsTheStandardLibrary(bytes) else { return nil }
        }
        return maker
        #else
        return nil
        #endif
    }

    /// Printable ASCII that differs from one length to the next.
    static func sampleBytes(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(33 + ($0 * 7 + count) % 94) }
    }

    /// The class metadata of `string`'s storage, if the string and its storage are laid out as
    /// ``make(_:count:)`` lays them out for `bytes`.
    static func storageLayout(of string: String, count: Int, bytes: [UInt8]) -> UnsafeRawPointer? {
        withExtendedLifetime(string) {
            let (countAndFlags, objectBits) = stringWords(string)
            guard countAndFlags == asciiFlags | UInt64(count),
                  objectBits & 0xF000_0000_0000_0000 == 0,
                  let object = UnsafeRawPointer(bitPattern: UInt(objectBits)),
                  object.load(fromByteOffset: 16, as: UInt64.self) == UInt64(capacity(for: count)),
                  object.load(fromByteOffset: 24, as: UInt64.self) == countAndFlags,
                  object.load(fromByteOffset: bytesOffset + count, as: UInt8.self) == 0,
                  memcmp(object + bytesOffset, bytes, count) == 0
            else { return nil }
            return object.load(as: UnsafeRawPointer?.self)
        }
    }

    /// Whether a string this maker makes of `bytes` has the standard library's words, value and
    /// hash, and grows in place within its capacity as the standard library's would.
    func behavesAsTheStandardLibrary(_ bytes: [UInt8]) -> Bool {
        let expected = String(decoding: bytes, as: UTF8.self)
        guard var made = bytes.withUnsafeBytes({ buffer in
            buffer.baseAddress.flatMap { make($0, count: bytes.count) }
        }) else { return false }
        guard Self.stringWords(made).0 == Self.stringWords(expected).0,
              made == expected, made.hashValue == expected.hashValue,
              made.utf8.elementsEqual(bytes)
        else { return false }
        // A unique native string appends in place while the byte and the terminator fit its
        // capacity, and moves to a new storage when they do not.
        let objectBefore = Self.stringWords(made).1
        let fits = bytes.count + 2 <= Self.capacity(for: bytes.count)
        made.append("!")
        return made == expected + "!" && (Self.stringWords(made).1 == objectBefore) == fits
    }

    /// A `String`'s two words: its count and flags, and its object bits.
    static func stringWords(_ string: String) -> (UInt64, UInt64) {
        withUnsafeBytes(of: string) { raw in
            (raw.load(as: UInt64.self), raw.load(fromByteOffset: 8, as: UInt64.self))
        }
    }
}

/// The `String` of the `count` bytes at `pointer`, or nil unless `count` is within
/// ``NativeStringMaker/lengths``, every byte is ASCII and this standard library's layout was
/// verified. Reads only the `count` bytes given.
@inlinable
@inline(__always)
func nativeASCIIString(_ pointer: UnsafePointer<UInt8>, count: Int) -> String? {
    #if _pointerBitWidth(_64) && _endian(little)
    // One compare for 16...63.
    guard UInt(bitPattern: count &- 16) < 48 else { return nil }
    let raw = UnsafeRawPointer(pointer)
    // Whole words from the start, then the last eight bytes (overlapping what is read already).
    var bits = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    var offset = 0
    repeat {
        bits |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset &+= 8
    } while offset &+ 8 <= count
    guard bits & 0x8080_8080_8080_8080 == 0, let maker = NativeStringMaker.current else { return nil }
    return maker.make(raw, count: count)
    #else
    return nil
    #endif
}
