import CairnSQLite
import Foundation
import Testing

@testable import CairnTool

@Suite("cairn's value printing and decoders")
struct OutputAndDecodingTests {
    @Test("values print as users think of them", arguments: [
        (DatabaseValue.real(0), ValueType.date, Cell.text("2001-01-01T00:00:00Z")),
        (.real(639_503_569.638_665), .date, .text("2021-04-07T15:52:49.639Z")),
        (.real(-0.0005), .date, .text("2000-12-31T23:59:59.999Z")),
        (.integer(1), .bool, .bool(true)),
        (.integer(2), .bool, .number("2")),
        (.blob(Data(count: 3)), .binary, .text("<3 bytes>")),
        (.blob(Data(repeating: 0xAB, count: 16)), .uuid, .text("ABABABAB-ABAB-ABAB-ABAB-ABABABABABAB")),
        (.real(120), .double, .number("120")),
        (.real(2.5), .decimal, .number("2.5")),
        (.null, .string, .null),
    ])
    func cells(value: DatabaseValue, type: ValueType, expected: Cell) {
        #expect(Cell(value, type: type) == expected)
    }

    @Test("CSV quotes fields with commas, quotes and line breaks (RFC 4180); JSON escapes control characters")
    func escaping() {
        #expect(Cell.csvField("plain") == "plain")
        #expect(Cell.csvField("a,b") == "\"a,b\"")
        #expect(Cell.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(Cell.csvField("two\nlines") == "\"two\nlines\"")
        #expect(Cell.csvField(nil) == "")
        #expect(Cell.text("tab\there \"q\"").json == #""tab\there \"q\"""#)
    }

    @Test("a table aligns columns, cuts long cells and counts rows")
    func table() {
        var output = ""
        let console = Console(out: { output += $0 }, error: { _ in }, errorIsTerminal: false)
        var writer = RowWriter(format: .table, columns: ["name", "n"], console: console)
        writer.write([.text("a"), .number("10")])
        writer.write([.text(String(repeating: "x", count: 60)), .null])
        writer.finish()
        console.flush()
        let long = String(repeating: "x", count: RowWriter.maximumWidth - 1) + "…"
        #expect(output == """
            name\(String(repeating: " ", count: RowWriter.maximumWidth - 2))n
            \(String(repeating: "-", count: RowWriter.maximumWidth))  ---
            a\(String(repeating: " ", count: RowWriter.maximumWidth + 1))10
            \(long)  nil
            (2 rows)

            """)
    }

    @Test("DEFLATE: a stored block, and corrupt input as an error")
    func inflate() throws {
        // A final stored block holding "hi": header bits 1 (final) + 00 (stored), then LEN/NLEN.
        #expect(try Inflate.decompress([0x01, 0x02, 0x00, 0xFD, 0xFF, 0x68, 0x69]) == Array("hi".utf8))
        #expect(throws: Inflate.Failure.self) { _ = try Inflate.decompress([0x01, 0x02, 0x00, 0x00, 0x00, 0x68]) }
        #expect(throws: Inflate.Failure.self) { _ = try Inflate.decompress([0x07]) }
        #expect(throws: Inflate.Failure.self) { _ = try Inflate.decompress([]) }
    }

    @Test("binary property lists: values read back, corrupt trailers and references are errors")
    func propertyList() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["name": "Café", "n": 42, "list": [1.5, true], "blob": Data([1, 2])], format: .binary, options: 0)
        let value = try PropertyListValue.parse(Array(data))
        #expect(value["name"]?.string == "Café")
        #expect(value["n"]?.integer == 42)
        #expect(value["list"]?.array?.count == 2)
        var corrupt = Array(data)
        corrupt[corrupt.count - 9] = 0xFF  // the offset table's position, now past the end
        #expect(throws: PropertyListValue.Failure.self) { _ = try PropertyListValue.parse(corrupt) }
        #expect(throws: PropertyListValue.Failure.self) { _ = try PropertyListValue.parse(Array("bplist00".utf8)) }
    }
}
