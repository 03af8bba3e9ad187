import CairnCoreData
import CairnFormatCheck
import Foundation
import Testing

/// The fuzz corpus of the format parser, kept as regression cases: every file under
/// FuzzCorpus/format (inputs libFuzzer found new coverage with, minimized) and
/// FuzzCorpus/crashes (inputs that once crashed it) goes through the check the fuzz target
/// makes. `Scripts/fuzz-format.sh` grows the corpus.
@Suite("Format fuzz corpus: every kept input parses, prints, parses back equal and evaluates, or is rejected")
struct FormatFuzzCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzCorpus")

    static func inputs(_ subfolder: String) throws -> [(name: String, text: String)] {
        let directory = folder.appendingPathComponent(subfolder)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.map { name in
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            return (name, String(decoding: data, as: UTF8.self))
        }
    }

    @Test(arguments: ["format", "crashes"])
    func replay(subfolder: String) throws {
        let inputs = try Self.inputs(subfolder)
        var parsed = 0
        for input in inputs {
            switch FormatRoundTripCheck.check(input.text) {
            case .rejected: break
            case .passed: parsed += 1
            case .failed(let why): Issue.record("\(subfolder)/\(input.name): \(why)")
            }
        }
        if subfolder == "format" {
            #expect(inputs.count >= 100)
            #expect(parsed >= inputs.count / 4, "only \(parsed) of \(inputs.count) inputs parse")
        } else {
            #expect(!inputs.isEmpty)
        }
    }

    /// `%K` takes any string as a key, as NSPredicate does; one the format language cannot
    /// write (`x'y"z`, `first name`) has no printed form that parses back, so the check does not
    /// ask for one. A key it can write (a reserved word escaped with `#`) must still round-trip.
    @Test func keysGivenThroughPercentKNeedNotBeWritable() throws {
        #expect(FormatRoundTripCheck.isWritable("name"))
        #expect(FormatRoundTripCheck.isWritable("ANY"))
        #expect(FormatRoundTripCheck.isWritable("@count"))
        #expect(!FormatRoundTripCheck.isWritable("x'y\"z"))
        #expect(!FormatRoundTripCheck.isWritable("first name"))
        #expect(FormatRoundTripCheck.check("-%4$K>C") == .passed)
        let predicate = try FormatPredicate("ANY tags.name == 'a' AND SUBQUERY(items, $i, $i.qty > n).@count > 0")
        #expect(FormatRoundTripCheck.keys(of: predicate) == ["tags", "name", "items", "qty", "n", "@count"])
    }

    /// The inputs that crashed the fuzz target: a subscript by a key named like an option
    /// (`n[#d]`), printed so that it read back as options after the operator.
    @Test(arguments: [#"n[#d] == 3"#, "(a[c]) == 1", "a[c] == 1", "x[#cd][#n] ==[cd] 'y'"])
    func crashesOfTheFuzzTarget(format: String) {
        #expect(FormatRoundTripCheck.check(format) == .passed)
    }
}
