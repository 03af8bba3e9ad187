import Foundation
import Synchronization

/// Building ASCII `String`s from SQLite's text through Swift's stable ABI: the one place in
/// Cairn that writes a `String`'s representation by hand, verified when the process first
/// reads text, and switched off by `CAIRN_PORTABLE=1`.
///
/// Why: the public initializers check, validate and copy through general code. For ASCII text,
/// which needs no validation (every byte below 0x80 is a whole scalar), writing the string as
/// the standard library would costs less (callgrind, one string made and freed, lengths 1–63):
///
/// | bytes | hand-built | `String(unsafeUninitializedCapacity:initializingUTF8With:)` | `String(decoding:as:)` |
/// |---|---|---|---|
/// | 1–15 (inline) | 73–88 | 143–146 | 151–249 |
/// | 16–63 (native storage) | 424–445 | 567–578 | 514–525 |
///
/// What it writes:
/// - **0 to 15 bytes**: the inline (small) form, the two words of the `String` itself: code
///   units 0–7 in the first word, 8–14 in the second, whose top byte is the discriminator
///   (`0xE0`, immortal, small, ASCII) plus the count.
/// - **16 to 63 bytes**: a native storage object, allocated with the runtime's
///   `swift_allocObject` with the standard library's own storage class, its capacity and
///   count words and the bytes followed by a NUL, and the `String`'s two words pointing at it.
///   From 64 bytes the standard library also reserves a word for breadcrumbs; such text always
///   takes the public path.
///
/// The `String` words and both representations are part of the standard library's ABI on
/// Apple's platforms and are the same code on Linux; the storage header is not promised. So
/// nothing is assumed: before the first string is made here, ``verified()`` asks the standard
/// library for a string of every length from 0 to 63 and checks that each is laid out exactly
/// as this file would lay it out (words, flags, storage class, capacity, count, bytes,
/// terminator), then that strings made here equal, hash, read and grow as the standard
/// library's do. On any difference, on a platform that is not 64-bit little-endian, when the
/// runtime function cannot be found, or when the environment sets `CAIRN_PORTABLE=1`, every
/// string goes through the public initializers. `SmallASCIITextTests` and
/// `NativeASCIITextTests` check the strings made against the standard library's (value, hash,
/// UTF-8, C string, growth, release), `StableABITextTests` that `CAIRN_PORTABLE=1` turns the
/// path off; the suite runs in both modes.
@usableFromInline
struct StableABIText: @unchecked Sendable {
    // @unchecked: the two pointers are to the runtime's `swift_allocObject` and to the class
    // metadata of the standard library's string storage, both immutable for the life of the
    // process; a value is never mutated.

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

    /// The lengths made inline.
    @usableFromInline static let smallLengths = 0...15
    /// The lengths made in native storage: above the 15 bytes of an inline string, below the
    /// 64 from which the storage carries breadcrumbs.
    @usableFromInline static let nativeLengths = 16...63
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

    /// The maker if this standard library lays strings out as this file does, whatever the
    /// environment says; nil otherwise.
    @usableFromInline static let layoutVerified: StableABIText? = verified()

    /// Whether the environment asks for the public path (`CAIRN_PORTABLE=1`).
    static var portableRequested: Bool {
        ProcessInfo.processInfo.environment["CAIRN_PORTABLE"] == "1"
    }

    /// Whether strings are built here in this process (false under `CAIRN_PORTABLE=1` or when
    /// the check failed).
    package static var isEnabled: Bool { current != nil }

    /// The answer, published for reads without a `swift_once` (a `static let` made by a
    /// function is reached through one on every read, about 10 instructions, once per string
    /// here). Atomics with a constant initial value are laid out initialized and read with a
    /// load. `publishedMetadata` is 0 until the check has run and 1 for the public path; it is
    /// stored after `publishedAllocator`, with release ordering, so a reader that sees it sees
    /// the allocator too.
    @usableFromInline static let publishedMetadata = Atomic<UInt>(0)
    @usableFromInline static let publishedAllocator = Atomic<UInt>(0)

    /// The maker in use, or nil for the public path.
    @inlinable @inline(__always)
    static var current: StableABIText? {
        let metadataBits = publishedMetadata.load(ordering: .acquiring)
        guard metadataBits > 1 else { return metadataBits == 0 ? publish() : nil }
        guard let metadata = UnsafeRawPointer(bitPattern: metadataBits),
              let allocator = UnsafeRawPointer(bitPattern: publishedAllocator.load(ordering: .relaxed))
        else { return nil }
        return StableABIText(metadata: metadata, allocateObject: unsafeBitCast(allocator, to: AllocateObject.self))
    }

    /// Runs the check (once, through ``layoutVerified``), reads the environment and publishes
    /// the answer.
    @usableFromInline
    static func publish() -> StableABIText? {
        guard !portableRequested, let maker = layoutVerified else {
            publishedMetadata.store(1, ordering: .releasing)
            return nil
        }
        publishedAllocator.store(UInt(bitPattern: unsafeBitCast(maker.allocateObject, to: UnsafeRawPointer.self)),
                                 ordering: .relaxed)
        publishedMetadata.store(UInt(bitPattern: maker.metadata), ordering: .releasing)
        return maker
    }

    // MARK: - Making strings

    /// A `String` of the `count` bytes at `bytes`, or nil unless `count` is in 0...63 and every
    /// byte is ASCII. Reads only the `count` bytes given.
    @inlinable @inline(__always)
    func make(_ bytes: UnsafePointer<UInt8>, count: Int) -> String? {
        // One compare for 0...15: a negative count, which SQLite never gives, goes on to the
        // native check, which declines it too.
        if UInt(bitPattern: count) <= 15 { return Self.makeSmall(bytes, count: count) }
        return makeNative(bytes, count: count)
    }

    /// The inline `String` of `count` (0...15) ASCII bytes, or nil if a byte is not ASCII.
    @inlinable @inline(__always)
    static func makeSmall(_ pointer: UnsafePointer<UInt8>, count: Int) -> String? {
        #if _pointerBitWidth(_64) && _endian(little)
        let raw = UnsafeRawPointer(pointer)
        var low: UInt64 = 0
        var high: UInt64 = 0
        if count >= 8 {
            // Bytes 0–7, then the last eight bytes shifted down so that byte 8 is the lowest
            // (for a count of 8 the smart shift by 64 leaves 0).
            low = raw.loadUnaligned(as: UInt64.self)
            high = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) >> (UInt64(16 &- count) &* 8)
        } else if count >= 4 {
            // Two four-byte loads that overlap; a byte read by both lands in the same place.
            let first = UInt64(raw.loadUnaligned(as: UInt32.self))
            let last = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            low = first | last &<< (UInt64(count &- 4) &* 8)
        } else if count > 0 {
            // One to three bytes: the first, the middle and the last (some of them the same).
            let middle = count &>> 1
            low = UInt64(pointer[0]) | UInt64(pointer[middle]) &<< (UInt64(middle) &* 8)
                | UInt64(pointer[count &- 1]) &<< (UInt64(count &- 1) &* 8)
        }
        guard (low | high) & 0x8080_8080_8080_8080 == 0 else { return nil }
        high |= UInt64(0xE0 | count) &<< 56
        return moveString(low, high)
        #else
        return nil
        #endif
    }

    /// The native `String` of `count` (16...63) ASCII bytes, or nil if `count` is outside that
    /// range or a byte is not ASCII.
    @inlinable @inline(__always)
    func makeNative(_ pointer: UnsafePointer<UInt8>, count: Int) -> String? {
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
        guard bits & 0x8080_8080_8080_8080 == 0 else { return nil }
        let capacity = Self.capacity(for: count)
        guard let object = allocateObject(metadata, Self.bytesOffset &+ capacity, 7) else { return nil }
        let countAndFlags = Self.asciiFlags | UInt64(truncatingIfNeeded: count)
        object.storeBytes(of: UInt64(truncatingIfNeeded: capacity), toByteOffset: 16, as: UInt64.self)
        object.storeBytes(of: countAndFlags, toByteOffset: 24, as: UInt64.self)
        let start = object + Self.bytesOffset
        start.copyMemory(from: raw, byteCount: count)
        start.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
        // The object's one reference passes to the `String` moved out of the buffer.
        return Self.moveString(countAndFlags, UInt64(UInt(bitPattern: object)))
        #else
        return nil
        #endif
    }

    /// The `String` whose two words are `first` and `second`, written in memory and moved out:
    /// `unsafeBitCast` of the pair made a copy, which cost a `swift_bridgeObjectRetain` (a
    /// no-op for a small string, but a call, about 19 instructions).
    @inlinable @inline(__always)
    static func moveString(_ first: UInt64, _ second: UInt64) -> String? {
        withUnsafeTemporaryAllocation(of: String.self, capacity: 1) { buffer in
            guard let string = buffer.baseAddress else { return nil }
            let words = UnsafeMutableRawPointer(string)
            words.storeBytes(of: first, as: UInt64.self)
            words.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
            return string.move()
        }
    }
}

/// The `String` of the `count` bytes at `pointer` built by hand, or nil for the public path:
/// `CAIRN_PORTABLE=1`, a layout that failed the check, text that is not ASCII or longer than
/// 63 bytes.
@inlinable @inline(__always)
func stableABIString(_ pointer: UnsafePointer<UInt8>, count: Int) -> String? {
    StableABIText.current?.make(pointer, count: count)
}

// MARK: - The check

extension StableABIText {
    /// The maker, once the standard library's strings of every length it makes have been found
    /// laid out as it lays them out, and strings it made behave as theirs; otherwise nil.
    static func verified() -> StableABIText? {
        #if _pointerBitWidth(_64) && _endian(little)
        // RTLD_DEFAULT: the symbol wherever the process loaded it (libswiftCore).
        guard let symbol = dlsym(nil, "swift_allocObject") else { return nil }
        let allocateObject = unsafeBitCast(symbol, to: AllocateObject.self)
        for count in smallLengths {
            guard smallBehavesAsTheStandardLibrary(sampleBytes(count: count)) else { return nil }
        }
        var metadata: UnsafeRawPointer?
        for count in nativeLengths {
            let bytes = sampleBytes(count: count)
            let expected = String(decoding: bytes, as: UTF8.self)
            guard let layout = storageLayout(of: expected, count: count, bytes: bytes) else { return nil }
            if metadata == nil { metadata = layout }
            guard metadata == layout else { return nil }
        }
        guard let metadata else { return nil }
        let maker = StableABIText(metadata: metadata, allocateObject: allocateObject)
        for count in nativeLengths {
            guard maker.nativeBehavesAsTheStandardLibrary(sampleBytes(count: count)) else { return nil }
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

    /// Whether the inline string made of `bytes` has the standard library's two words, value,
    /// hash and UTF-8, and appends as theirs.
    static func smallBehavesAsTheStandardLibrary(_ bytes: [UInt8]) -> Bool {
        let expected = String(decoding: bytes, as: UTF8.self)
        guard var made = bytes.withUnsafeBufferPointer({ buffer in
            makeSmall(buffer.baseAddress ?? UnsafePointer(bitPattern: 1).unsafelyUnwrapped, count: bytes.count)
        }) else { return false }
        guard stringWords(made) == stringWords(expected), made == expected, made.hashValue == expected.hashValue,
              made.utf8.elementsEqual(bytes)
        else { return false }
        made.append("!")
        return made == expected + "!"
    }

    /// The class metadata of `string`'s storage, if the string and its storage are laid out as
    /// ``makeNative(_:count:)`` lays them out for `bytes`.
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

    /// Whether a native string this maker makes of `bytes` has the standard library's count
    /// word, value and hash, and grows in place within its capacity as the standard library's
    /// would.
    func nativeBehavesAsTheStandardLibrary(_ bytes: [UInt8]) -> Bool {
        let expected = String(decoding: bytes, as: UTF8.self)
        guard var made = bytes.withUnsafeBufferPointer({ buffer in
            buffer.baseAddress.flatMap { makeNative($0, count: bytes.count) }
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
