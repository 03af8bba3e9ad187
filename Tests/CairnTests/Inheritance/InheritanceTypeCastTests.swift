@testable import Cairn
import Foundation
import SwiftData
import Testing

@Suite("Model inheritance: `is` and `as?` in predicates")
struct InheritanceTypeCastTests {
    private func saved() throws -> (ModelContainer, ModelContext) {
        try savedArticles(
            [Article(title: "Plain"), Tutorial(title: "Easy", difficulty: 1), Tutorial(title: "Hard", difficulty: 5),
             News(title: "Release", topic: "Swift")],
            listed: [2, 3])
    }

    /// The titles `predicate` selects in SQL, checked against Foundation's `evaluate` on the
    /// same models.
    private func titles(_ predicate: Predicate<Article>, in context: ModelContext) throws -> [String] {
        let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.title)]))
        let all = try context.fetch(FetchDescriptor<Article>(sortBy: [SortDescriptor(\.title)]))
        #expect(fetched.map(\.title) == all.filter { (try? predicate.evaluate($0)) == true }.map(\.title))
        #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == fetched.count)
        return fetched.map(\.title)
    }

    @Test func isMatchesTheClassAndItsSubclasses() throws {
        let (container, context) = try saved()
        #expect(try titles(#Predicate { $0 is Tutorial }, in: context) == ["Easy", "Hard"])
        #expect(try titles(#Predicate { $0 is News }, in: context) == ["Release"])
        #expect(try titles(#Predicate { !($0 is Tutorial) && $0.title != "Plain" }, in: context) == ["Release"])
        let store = try container.store(for: "Article")
        _ = try context.fetch(FetchDescriptor<Article>(predicate: #Predicate { $0 is Tutorial }))
        #expect(store.executedStatements.last?.hasSuffix(#"FROM "Article" AS "t0" WHERE "t0"."_entity" = ?"#) == true)
    }

    @Test func asReadsASubclassPropertyWhereTheRowHasIt() throws {
        let (_, context) = try saved()
        #expect(try titles(#Predicate { ($0 as? Tutorial)?.difficulty ?? 0 > 2 }, in: context) == ["Hard"])
        #expect(try titles(#Predicate { ($0 as? News)?.topic == "Swift" }, in: context) == ["Release"])
        #expect(try titles(#Predicate { ($0 as? Tutorial) == nil }, in: context) == ["Plain", "Release"])
    }

    @Test func aTypeCheckInsideAToManyRelationshipsContains() throws {
        let (_, context) = try saved()
        let lists = try context.fetch(FetchDescriptor<ReadingList>(predicate: #Predicate { list in
            list.articles.contains { $0 is News }
        }))
        #expect(lists.map(\.name) == ["Weekend"])
        let none = try context.fetch(FetchDescriptor<ReadingList>(predicate: #Predicate { list in
            list.articles.contains { $0 is Tutorial && $0.title == "Easy" }
        }))
        #expect(none.isEmpty)
    }
}
