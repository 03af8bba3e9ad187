@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Generated predicates over generated specimens: every aggregate computed in SQL (saved
/// models) equals the same aggregate computed from `fetch`'s models (a limit larger than the
/// table sends it down that path) and Swift's own answer on the matching models.
@Suite("Aggregate differential (SQL, fetched models, Swift)")
struct AggregateDifferentialTests {
    @Test(arguments: [UInt64(11), 12])
    func generated(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let (context, specimens) = try DifferentialData.savedSpecimens(count: 80, random: &random)
        var failures: [String] = []
        func check<Value: Equatable>(_ what: String, _ sql: Value, _ memory: Value, _ swift: Value, _ predicate: String) {
            if sql != swift || memory != swift {
                failures.append("\(what) where \(predicate): SQL \(sql), from models \(memory), Swift \(swift)")
            }
        }
        for _ in 0..<200 {
            let predicate = Predicate<Specimen> { variable in DifferentialData.tree(variable, depth: 2, random: &random) }
            let inSQL = FetchDescriptor(predicate: predicate)
            var fromModels = inSQL
            fromModels.fetchLimit = 1_000_000
            let matching = try specimens.filter { try predicate.evaluate($0) }
            let text = describe(predicate.expression)

            check("sum of count", try context.fetchSum(inSQL, of: \.count), try context.fetchSum(fromModels, of: \.count),
                  matching.reduce(0) { $0 + $1.count }, text)
            check("min of count", try context.fetchMinimum(inSQL, of: \.count), try context.fetchMinimum(fromModels, of: \.count),
                  matching.map(\.count).min(), text)
            check("max of score", try context.fetchMaximum(inSQL, of: \.score), try context.fetchMaximum(fromModels, of: \.score),
                  matching.map(\.score).max(), text)
            check("min of name", try context.fetchMinimum(inSQL, of: \.name), try context.fetchMinimum(fromModels, of: \.name),
                  matching.map(\.name).min(), text)
            check("max of day", try context.fetchMaximum(inSQL, of: \.day), try context.fetchMaximum(fromModels, of: \.day),
                  matching.map(\.day).max(), text)
            let average = matching.isEmpty ? nil : Double(matching.reduce(0) { $0 + $1.count }) / Double(matching.count)
            check("average of count", try context.fetchAverage(inSQL, of: \.count), try context.fetchAverage(fromModels, of: \.count),
                  average, text)

            let names = try context.fetchCounts(inSQL, groupedBy: \.name)
            let namesFromModels = try context.fetchCounts(fromModels, groupedBy: \.name)
            var expectedNames: [String: Int] = [:]
            for specimen in matching { expectedNames[specimen.name, default: 0] += 1 }
            check("counts by name", names.map(\.key), namesFromModels.map(\.key), expectedNames.keys.sorted(), text)
            check("counts by name", names.map(\.count), namesFromModels.map(\.count),
                  expectedNames.keys.sorted().map { expectedNames[$0] ?? 0 }, text)
            let ranks = try context.fetchCounts(inSQL, groupedBy: \.rank)
            let ranksFromModels = try context.fetchCounts(fromModels, groupedBy: \.rank)
            check("counts by rank", ranks.map(\.key), ranksFromModels.map(\.key),
                  Array(Set(matching.map(\.rank))).sorted { ($0 ?? .min) < ($1 ?? .min) }, text)
            let flags = try context.fetchCounts(inSQL, groupedBy: \.flag)
            let flagsFromModels = try context.fetchCounts(fromModels, groupedBy: \.flag)
            check("counts by flag", flags.map(\.key), flagsFromModels.map(\.key),
                  [false, true].filter { flag in matching.contains { $0.flag == flag } }, text)
        }
        let report = failures.prefix(12).joined(separator: "\n")
        #expect(failures.isEmpty, "\(failures.count) differ:\n\(report)")
    }
}
