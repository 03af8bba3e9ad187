import CairnCoreData
import CairnTestSupport
import Testing


@Suite("Format parser robustness: mutated formats never crash, and whatever parses round-trips")
struct FormatPredicateFuzzTests {
    static let alphabet: [Character] = Array("()[]{}.,'\"\\%@K$#*?!=<>&|+-/ 0123456789abcxyzANDORNOTéß\u{301}\n")

    static func mutate(_ format: String, using generator: inout SeededRandom) -> String {
        var characters = Array(format)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0 where !characters.isEmpty:
                characters.remove(at: position)
            case 1:
                characters.insert(alphabet.randomElement(using: &generator) ?? "(", at: position)
            case 2 where !characters.isEmpty:
                let end = min(characters.count, position + Int.random(in: 1...6, using: &generator))
                characters.insert(contentsOf: characters[position..<end], at: position)
            default:
                if characters.count > 1 {
                    let other = Int.random(in: 0..<characters.count, using: &generator)
                    characters.swapAt(position, other)
                }
            }
        }
        return String(characters)
    }

    @Test(arguments: 0..<8)
    func mutatedFormats(seed: Int) throws {
        var generator = SeededRandom(seed: UInt64(seed) &* 7919)
        let cases = FormatPredicateTableTests.all
        var parsed = 0
        for _ in 0..<1_000 {
            guard let base = cases.randomElement(using: &generator) else { return }
            let format = Self.mutate(base.format, using: &generator)
            guard let predicate = try? FormatPredicate(format, arguments: base.arguments) else { continue }
            parsed += 1
            let reparsed = try FormatPredicate(predicate.predicateFormat)
            #expect(reparsed == predicate, "\(format) printed as \(predicate.predicateFormat)")
            for row in expenses() {
                _ = try? predicate.evaluate(with: row, limits: FormatEvaluationLimits(regularExpressionTimeout: 0.05))
            }
        }
        #expect(parsed > 100)
    }
}
