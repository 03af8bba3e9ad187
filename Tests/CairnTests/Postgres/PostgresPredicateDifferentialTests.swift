@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// The generated predicates and sorts of `PredicateDifferentialTests`, fetched from a
/// PostgreSQL store: each returns exactly the rows, in exactly the order, that Foundation's
/// `evaluate` and `sorted(using:)` give; what the server cannot express as Swift answers
/// (case- and diacritic-insensitive and localized comparisons, `String.count`) runs in Swift on
/// the rows it reads.
@Suite("Predicate differential on PostgreSQL (SQL vs evaluate)", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresPredicateDifferentialTests {
    @Test(arguments: [UInt64(1), 2])
    func generatedPredicatesAgreeOrAreRefusedByName(seed: UInt64) throws {
        try PostgresTestSchema.withSchema { url in
            var random = SeededRandom(seed: seed)
            let specimens = DifferentialData.specimens(count: 90, random: &random)
            let container = try ModelContainer(
                for: Specimen.self, configurations: ModelConfiguration(url: try #require(URL(string: url))))
            let context = ModelContext(container)
            for specimen in specimens { context.insert(specimen) }
            try context.save()
            let positions = Dictionary(uniqueKeysWithValues: specimens.enumerated().map { (ObjectIdentifier($0.element), $0.offset) })

            var failures: [String] = []
            var refusals: [String: Int] = [:]
            var compared = 0
            for iteration in 0..<PredicateDifferentialTests.predicateCount {
                let (predicate, sort, descriptor) = DifferentialData.descriptor(random: &random)
                // A forced unwrap of nil stops Foundation's evaluate: nothing to compare with.
                guard let expected = try? foundationAnswer(descriptor, over: specimens).compactMap({ positions[ObjectIdentifier($0)] }) else {
                    continue
                }
                do {
                    let actual = try context.fetch(descriptor).compactMap { positions[ObjectIdentifier($0)] }
                    compared += 1
                    let same = sort.isEmpty ? actual.sorted() == expected.sorted() : actual == expected
                    if !same {
                        failures.append(
                            "seed \(seed) #\(iteration): \(describe(predicate.expression))\n  sort: \(sort)\n  PostgreSQL rows: \(actual)\n  Swift rows: \(expected)")
                    }
                } catch {
                    let reason = "\(error)"
                    let construct = reason.components(separatedBy: "PostgreSQL").first ?? reason
                    refusals[construct, default: 0] += 1
                    if !reason.contains("PostgreSQL") {
                        failures.append("seed \(seed) #\(iteration): an error that does not name PostgreSQL: \(reason)")
                    }
                }
                if failures.count >= 5 { break }
            }
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
            // What the server cannot express runs in Swift: nothing is refused.
            #expect(refusals.isEmpty, "\(refusals)")
            #expect(compared == PredicateDifferentialTests.predicateCount)
        }
    }
}
