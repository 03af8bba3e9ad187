@testable import CairnSQLite
import CairnTestSupport
import Foundation
import Testing

/// `StableABIText` builds ASCII strings of 16 to 63 bytes in the standard library's native
/// storage by hand (StableABIText.swift). These tests check that the strings it makes are the
/// strings the standard library makes, in value and in behaviour, that they are freed, and that
/// text it must not take falls through to the public initializers unchanged. The maker is
/// tested whatever `CAIRN_PORTABLE` says (its layout check ignores the environment); rows read
/// through whichever path the process uses.
@Suite struct NativeASCIITextTests {
    static let childVariable = "CAIRN_NATIVE_TEXT_CHILD"

    /// The string the verified maker makes of `bytes`, read from the start of a buffer.
    static func made(_ bytes: [UInt8]) -> String? {
        guard let maker = StableABIText.layoutVerified else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { maker.make($0, count: bytes.count) }
        }
    }

    @Test("this toolchain's strings are laid out as the maker lays them out, so the fast path can run")
    func theLayoutCheckPasses() {
        #expect(StableABIText.layoutVerified != nil)
    }

    /// Every length from 16 to 63, with random printable ASCII and with control bytes including
    /// NUL: the string equals `String(decoding:as:)`'s in value, hash, UTF-8, scalars, C
    /// string, and when used as a dictionary key, compared, sliced and bridged.
    @Test func everyLengthMatchesTheStandardLibrary() throws {
        var random = SeededRandom(seed: 30)
        for count in StableABIText.nativeLengths {
            for trial in 0..<40 {
                // Odd trials use the whole ASCII range, 0x00 to 0x7F.
                let bytes: [UInt8] = (0..<count).map { _ in
                    trial % 2 == 0 ? UInt8(32 + random.next() % 95) : UInt8(random.next() % 128)
                }
                let expected = String(decoding: bytes, as: UTF8.self)
                let made = try #require(Self.made(bytes))
                #expect(made == expected)
                #expect(made.hashValue == expected.hashValue)
                #expect(Array(made.utf8) == bytes)
                #expect(made.utf8.count == count)
                #expect(made.unicodeScalars.count == count)
                #expect(made.count == expected.count)
                #expect([made: count][expected] == count)
                #expect(made.hasPrefix(String(expected.prefix(count / 2))))
                #expect(made.suffix(5) == expected.suffix(5))
                #expect((made < expected + "!") && !(made < expected))
                // withCString reads the terminator the maker wrote (a NUL inside the text ends
                // the C string early, for both).
                #expect(made.withCString { strlen($0) } == expected.withCString { strlen($0) })
                #expect(NSString(string: made).length == count)
            }
        }
    }

    /// The two words of a made string are the standard library's, so every inlinable reader in
    /// every module sees the same string: the count and flags, and an object of the same class.
    @Test func wordsAreTheStandardLibrarys() throws {
        for count in StableABIText.nativeLengths {
            let bytes = StableABIText.sampleBytes(count: count)
            let expected = String(decoding: bytes, as: UTF8.self)
            let made = try #require(Self.made(bytes))
            let (madeCount, madeObject) = StableABIText.stringWords(made)
            let (expectedCount, expectedObject) = StableABIText.stringWords(expected)
            #expect(madeCount == expectedCount)
            #expect(madeObject >> 60 == expectedObject >> 60)
            let madeClass = UnsafeRawPointer(bitPattern: UInt(madeObject))?.load(as: UInt.self)
            let expectedClass = UnsafeRawPointer(bitPattern: UInt(expectedObject))?.load(as: UInt.self)
            #expect(madeClass == expectedClass)
            withExtendedLifetime((made, expected)) {}
        }
    }

    /// A made string is unique and knows its capacity: appending within it keeps the storage,
    /// appending past it moves to a new one, and either way the text is right. Mutating a copy
    /// leaves the original alone.
    @Test func growsAndCopiesAsTheStandardLibrarys() throws {
        for count in StableABIText.nativeLengths {
            let bytes = StableABIText.sampleBytes(count: count)
            let expected = String(decoding: bytes, as: UTF8.self)
            var made = try #require(Self.made(bytes))
            let original = made
            made.append("x")
            #expect(made == expected + "x")
            #expect(original == expected)
            var grown = try #require(Self.made(bytes))
            let grownStorage = StableABIText.stringWords(grown).1
            let room = StableABIText.capacity(for: count) - count - 1
            grown.append(String(repeating: "y", count: room))
            #expect(StableABIText.stringWords(grown).1 == grownStorage, "count \(count): in place")
            grown.append("z")
            #expect(StableABIText.stringWords(grown).1 != grownStorage, "count \(count): moved")
            #expect(grown == expected + String(repeating: "y", count: room) + "z")
            grown.removeLast(room + 1)
            #expect(grown == expected)
        }
    }

    /// The loads take only the bytes they are given: text at the very end of a buffer filled
    /// with 0xFF. A load that started before the text would bring in a 0xFF byte and decline
    /// it, and one that ran past its end would read outside the buffer.
    @Test func readsNoByteBeyondTheCount() throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 128, alignment: 16)
        defer { buffer.deallocate() }
        let text = Array("The quick brown fox jumps over the lazy dog, then naps in the sun".utf8)
        for count in StableABIText.nativeLengths {
            buffer.initializeMemory(as: UInt8.self, repeating: 0xFF)
            let start = 128 - count
            for offset in 0..<count { buffer[start + offset] = text[offset] }
            let pointer = (buffer.baseAddress! + start).assumingMemoryBound(to: UInt8.self)
            #expect(StableABIText.layoutVerified?.make(pointer, count: count)
                    == String(decoding: text.prefix(count), as: UTF8.self))
        }
    }

    /// Text with a byte of 0x80 or above anywhere (first, middle, last), text of 64 bytes or
    /// more, and a negative count are left to the public initializers.
    @Test func declinesTextItMustNotTake() {
        for count in [16, 17, 23, 24, 40, 63] {
            for position in Set([0, count / 2, count - 8, count - 1]) {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count)
                bytes[position] = 0xC3
                #expect(Self.made(bytes) == nil, "count \(count), 0xC3 at \(position)")
            }
        }
        for count in [64, 65, 200] {
            #expect(Self.made([UInt8](repeating: UInt8(ascii: "a"), count: count)) == nil, "count \(count)")
        }
        let ascii = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        #expect(ascii.withUnsafeBufferPointer { StableABIText.layoutVerified?.make($0.baseAddress!, count: -1) } == nil)
    }

    /// Through a row: stored text of every length from 0 to 80, ASCII, accented, invalid UTF-8
    /// (repaired to U+FFFD, as `String(decoding:as:)` does) and with an embedded NUL, reads
    /// back as the standard library decodes it, through `String` and `DatabaseValue`.
    @Test func textColumnsReadBackAsTheStandardLibraryDecodesThem() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body BLOB)")
        let sentence = Array(String(repeating: "Pack my box with five dozen liquor jugs. ", count: 2).utf8)
        var stored: [[UInt8]] = (0...80).map { Array(sentence.prefix($0)) }
        stored += [
            Array("Zürich Hauptbahnhof, Bahnhofplatz 1".utf8), Array(String(repeating: "é", count: 20).utf8),
            Array("abcdefghijklmnop\u{0}qrstuvwxyz".utf8), Array("abcdefghijklmnopqrst".utf8) + [0xC3],
            [0xFF] + Array("abcdefghijklmnopqrst".utf8),
        ]
        for bytes in stored {
            // Stored as a blob and read through CAST so that the bytes, even invalid UTF-8, are
            // exactly these.
            try db.execute(sql: "INSERT INTO note (body) VALUES (?)", arguments: [Data(bytes)])
        }
        let read = try db.fetchAll(sql: "SELECT CAST(body AS TEXT) FROM note ORDER BY id") { row in
            try row.decode(String.self, at: 0)
        }
        let expected = stored.map { String(decoding: $0, as: UTF8.self) }
        #expect(read == expected)
        let values = try db.fetchAll(sql: "SELECT CAST(body AS TEXT) FROM note ORDER BY id") { row in
            row.databaseValue(at: 0)
        }
        #expect(values == expected.map { DatabaseValue.text($0) })
    }

    /// Makes and drops `count` strings of 63 bytes, 2,000 alive at a time; returns how many
    /// the maker made.
    static func churn(_ count: Int) -> Int {
        let bytes = [UInt8](repeating: UInt8(ascii: "q"), count: 63)
        var alive: [String] = []
        alive.reserveCapacity(2_000)
        var made = 0
        for _ in 0..<count / 2_000 {
            alive.removeAll(keepingCapacity: true)
            for _ in 0..<2_000 {
                if let text = Self.made(bytes) { alive.append(text); made += 1 }
            }
        }
        return made
    }

    /// A made string is freed when its last copy goes: its reference count starts at one, as
    /// the standard library's do. The process's resident memory is shared with the tests
    /// running beside it, so the count runs in a child (as SlotReleaseTests does).
    @Test("made strings are freed: the heap stays flat")
    func madeStringsAreFreed() throws {
        let (status, output) = try runChildTest(
            "NativeASCIITextTests/childChurnsStrings", environment: [Self.childVariable: "1"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("Test childChurnsStrings() passed"), "\(output)")
    }

    /// The child's entry point: runs only in the re-executed process.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func childChurnsStrings() {
        #expect(Self.churn(20_000) == 20_000)
        let before = residentKiB()
        // A leak of every string would keep 2,000,000 × 112 bytes: about 214 MiB.
        #expect(Self.churn(2_000_000) == 2_000_000)
        let grown = residentKiB() - before
        #expect(before > 0)
        #expect(grown < 32 * 1024, "resident memory grew by \(grown) KiB")
    }
}
