/// Building a short ASCII `String` straight from SQLite's text bytes.
///
/// A `String` of at most 15 UTF-8 bytes is stored inline in its two words, with no allocation.
/// `String(unsafeUninitializedCapacity:initializingUTF8With:)` builds one through a closure,
/// copies the bytes with `memcpy` and then validates them: about 108 instructions for 7 bytes.
/// Most short database text (codes, cities, postal codes, enum raw values) is ASCII. ASCII
/// needs no validation: every byte below 0x80 is a whole scalar. So this file loads the bytes
/// into the two words with a few unaligned loads, checks the high bits, and sets the
/// discriminator byte: about 31 instructions. On W6 that is 7.5M small strings of the
/// 16,000 × 100 rows (see Docs/PerformanceHistory.md, session 25).
///
/// This relies on the inline representation of `String` on 64-bit little-endian platforms.
/// That layout is part of the standard library's ABI, frozen on Apple's platforms and the
/// same on Linux: the first word holds code units 0–7, the second holds code units 8–14, and
/// its top byte is the discriminator. For a small ASCII string the discriminator is `0xE0`
/// (immortal, small, ASCII) plus the count. Elsewhere, and for text that is not ASCII, Cairn
/// uses the public initializers. `SmallASCIITextTests` checks every length from 0 to 15
/// against `String(decoding:as:)`: equality, hash, `utf8`, `unicodeScalars` and appending.

/// The `String` of the `count` bytes at `pointer`, or nil unless `count` is at most 15 and
/// every byte is ASCII. SQLite's text is followed by a NUL byte, but this reads only the
/// `count` bytes given.
@inlinable
@inline(__always)
func smallASCIIString(_ pointer: UnsafePointer<UInt8>, count: Int) -> String? {
    #if _pointerBitWidth(_64) && _endian(little)
    // One compare for 0...15: a negative count, which SQLite never gives, is declined too.
    guard UInt(bitPattern: count) <= 15 else { return nil }
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
    // Written as the two words of a `String` in memory and moved out: `unsafeBitCast` of the
    // pair made a copy, which cost a `swift_bridgeObjectRetain` (a no-op for a small string,
    // but a call: about 19 instructions).
    return withUnsafeTemporaryAllocation(of: String.self, capacity: 1) { buffer in
        guard let string = buffer.baseAddress else { return nil }
        let raw = UnsafeMutableRawPointer(string)
        raw.storeBytes(of: low, as: UInt64.self)
        raw.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
        return string.move()
    }
    #else
    return nil
    #endif
}
