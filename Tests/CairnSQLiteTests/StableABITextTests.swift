@testable import CairnSQLite
import CairnTestSupport
import Foundation
import Testing

/// The switch in front of the hand-built strings (StableABIText.swift): on when this
/// toolchain's layout passed the check, off under `CAIRN_PORTABLE=1`, and text reads the same
/// either way. The suite runs in both modes; the child test makes sure the portable mode is
/// seen from a default run too.
@Suite struct StableABITextTests {
    static let childVariable = "CAIRN_STABLE_ABI_CHILD"

    /// Text of every length from 0 to 70, ASCII and not, as rows give it back.
    static func readsTextAsTheStandardLibrary() throws -> Bool {
        let db = try Database.inMemory()
        let sentence = Array(String(repeating: "Sphinx of black quartz, judge my vow. ", count: 2).utf8)
        var stored: [[UInt8]] = (0...70).map { Array(sentence.prefix($0)) }
        stored += [Array("Zürich".utf8), Array(String(repeating: "ü", count: 12).utf8), [0x61, 0xC3]]
        try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body BLOB)")
        for bytes in stored {
            try db.execute(sql: "INSERT INTO note (body) VALUES (?)", arguments: [Data(bytes)])
        }
        let read = try db.fetchAll(sql: "SELECT CAST(body AS TEXT) FROM note ORDER BY id") { row in
            try row.decode(String.self, at: 0)
        }
        return read == stored.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the entry point builds a string by hand for ASCII text of `count` bytes.
    static func buildsByHand(count: Int) -> Bool {
        let bytes = [UInt8](repeating: UInt8(ascii: "k"), count: count)
        return bytes.withUnsafeBufferPointer { stableABIString($0.baseAddress!, count: count) } != nil
    }

    @Test("the hand-built path is on exactly when the layout passed and CAIRN_PORTABLE=1 is not set")
    func theSwitchFollowsTheCheckAndTheEnvironment() throws {
        let portable = ProcessInfo.processInfo.environment["CAIRN_PORTABLE"] == "1"
        #expect(StableABIText.layoutVerified != nil)
        #expect(StableABIText.isEnabled == !portable)
        for count in [0, 7, 15, 16, 40, 63] {
            #expect(Self.buildsByHand(count: count) == !portable, "count \(count)")
        }
        #expect(!Self.buildsByHand(count: 64))
        #expect(try Self.readsTextAsTheStandardLibrary())
    }

    @Test("CAIRN_PORTABLE=1 turns the hand-built path off and text reads the same")
    func portableModeInAChild() throws {
        let (status, output) = try runChildTest(
            "StableABITextTests/childRunsPortable", environment: [Self.childVariable: "1", "CAIRN_PORTABLE": "1"])
        #expect(status == 0, "\(output.suffix(2_000))")
        #expect(output.contains("Test childRunsPortable() passed"), "\(output.suffix(1_000))")
    }

    /// The child's entry point: runs only in the re-executed process.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func childRunsPortable() throws {
        #expect(!StableABIText.isEnabled)
        #expect(!Self.buildsByHand(count: 7) && !Self.buildsByHand(count: 40))
        #expect(try Self.readsTextAsTheStandardLibrary())
    }
}
