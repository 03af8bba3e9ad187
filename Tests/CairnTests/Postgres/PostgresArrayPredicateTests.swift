@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Predicates over array attributes and captured sequences on a PostgreSQL store: the JSON
/// array (stored, or bound) is read with `json_array_elements_text`, each element cast to the
/// type it is compared as.
@Suite("Array predicates on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresArrayPredicateTests {
    @Test func arrayAttributesAndCapturedSequencesAnswerAsEvaluateDoes() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try ModelContainer(
                for: Specimen.self, configurations: ModelConfiguration(url: try #require(URL(string: url))))
            let context = ModelContext(container)
            let specimens = [
                specimen("a", mood: .calm, tags: ["red", "e\u{301}t\u{e9}"]),
                specimen("b", count: 2, mood: .happy, tags: []),
                specimen("c", count: 5, mood: .sad, tags: ["blue"]),
            ]
            for model in specimens { context.insert(model) }
            try context.save()
            let store = try container.store(for: "Specimen")

            func names(_ predicate: Predicate<Specimen>) throws -> [String] {
                let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])).map(\.name)
                #expect(fetched == (try foundationAnswer(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)]), over: specimens).map(\.name)))
                return fetched
            }
            // Composed and decomposed "été" are equal in Swift, and on the server.
            #expect(try names(#Predicate { $0.tags.contains("\u{e9}t\u{e9}") }) == ["a"])
            #expect(store.executedStatements.last?.contains(
                #"EXISTS (SELECT 1 FROM json_array_elements_text(CAST("t0"."tags" AS JSON)) AS "t1"("value") WHERE ((CAST("t1"."value" AS TEXT)) COLLATE "C" = $1))"#) == true,
                "\(store.executedStatements.last ?? "")")
            #expect(try names(#Predicate { $0.tags.isEmpty }) == ["b"])
            #expect(try names(#Predicate { $0.tags.count == 1 }) == ["c"])
            #expect(try names(#Predicate { $0.tags.contains { $0.starts(with: "bl") } }) == ["c"])
            let moods: [Temper] = [.calm, .sad]
            #expect(try names(#Predicate { moods.contains($0.mood) }) == ["a", "c"])
            let limits = [1, 4]
            #expect(try names(#Predicate { specimen in limits.contains { $0 > specimen.count } }) == ["a", "b"])
        }
    }
}
