@testable import CairnSQLite
import CairnTestSupport
import Foundation
import Testing

/// `StableABIText` builds short ASCII strings in `String`'s inline form by hand
/// (StableABIText.swift). These tests check that the strings it makes are the strings the
/// standard library makes, and that text it must not take falls through to the public
/// initializers unchanged. The maker is tested whatever `CAIRN_PORTABLE` says (its layout check
/// ignores the environment); rows read through whichever path the process uses.
@Suite struct SmallASCIITextTests {
    /// The maker, which this toolchain's layout must pass.
    static func maker() throws -> StableABIText { try #require(StableABIText.layoutVerified) }

    /// Every length from 0 to 15, with random printable ASCII and with control bytes including
    /// NUL: the string equals `String(decoding:as:)`'s in value, hash, UTF-8, scalars, and when
    /// appended to and used as a dictionary key.
    @Test func everyShortASCIILengthMatchesTheStandardLibrary() throws {
        var random = SeededRandom(seed: 25)
        for count in 0...15 {
            for trial in 0..<50 {
                // Odd trials use the whole ASCII range, 0x00 to 0x7F.
                let bytes: [UInt8] = (0..<count).map { _ in
                    trial % 2 == 0 ? UInt8(32 + random.next() % 95) : UInt8(random.next() % 128)
                }
                let expected = String(decoding: bytes, as: UTF8.self)
                let made = try #require(bytes.withUnsafeBufferPointer { buffer in
                    StableABIText.makeSmall(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: count)
                })
                #expect(made == expected)
                #expect(made.hashValue == expected.hashValue)
                #expect(Array(made.utf8) == bytes)
                #expect(made.unicodeScalars.count == count)
                #expect(made.count == expected.count)
                #expect(made + "é" == expected + "é")
                #expect([made: count][expected] == count)
                #expect(made.hasPrefix(String(expected.prefix(count / 2))))
            }
        }
    }

    /// The loads take only the bytes they are given: text at the very end of a buffer filled
    /// with 0xFF. A load that started before the text would bring in a 0xFF byte, and one that
    /// ran past its end would read outside the buffer; either changes the string made.
    @Test func readsNoByteBeyondTheCount() throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { buffer.deallocate() }
        for count in 0...15 {
            buffer.initializeMemory(as: UInt8.self, repeating: 0xFF)
            let start = 64 - count
            let text = Array("abcdefghijklmno".utf8.prefix(count))
            for (offset, byte) in text.enumerated() { buffer[start + offset] = byte }
            let pointer = (buffer.baseAddress! + start).assumingMemoryBound(to: UInt8.self)
            #expect(try Self.maker().make(pointer, count: count) == String(decoding: text, as: UTF8.self))
        }
    }

    /// Text with any byte of 0x80 or above (UTF-8 beyond ASCII, or invalid bytes) and a
    /// negative count are left to the public initializers.
    @Test func declinesTextThatIsNotShortASCII() throws {
        let maker = try Self.maker()
        let cases: [[UInt8]] = [
            Array("é".utf8), Array("abcdefgé".utf8), Array("abcdefghijklmé".utf8), [0x61, 0xFF], [0x80],
        ]
        for bytes in cases {
            let made = bytes.withUnsafeBufferPointer { maker.make($0.baseAddress!, count: bytes.count) }
            #expect(made == nil, "\(bytes)")
        }
        let ascii: [UInt8] = Array("abc".utf8)
        #expect(ascii.withUnsafeBufferPointer { maker.make($0.baseAddress!, count: -1) } == nil)
    }

    /// Through a row: stored text of every length up to 20, ASCII, accented, invalid UTF-8
    /// (repaired to U+FFFD, as `String(decoding:as:)` does) and with an embedded NUL, reads
    /// back as the standard library decodes it.
    @Test func textColumnsReadBackAsTheStandardLibraryDecodesThem() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body BLOB)")
        var stored: [[UInt8]] = []
        for count in 0...20 { stored.append(Array("The quick brown fox j".utf8.prefix(count))) }
        stored += [Array("Zürich".utf8), Array("São Paulo".utf8), [0x61, 0x00, 0x62], [0x61, 0xC3], [0xFF, 0x41]]
        for bytes in stored {
            // Stored as a blob and read through CAST so that the bytes, even invalid UTF-8, are
            // exactly these.
            try db.execute(sql: "INSERT INTO note (body) VALUES (?)", arguments: [Data(bytes)])
        }
        let read = try db.fetchAll(sql: "SELECT CAST(body AS TEXT) FROM note ORDER BY id") { row in
            try row.decode(String.self, at: 0)
        }
        #expect(read == stored.map { String(decoding: $0, as: UTF8.self) })
    }
}
