@testable import Cairn
import CairnSQLite
import Foundation
import SwiftData
import Testing

@Suite("Model inheritance: predicates, sorts, relationships, SQL")
struct InheritanceQueryTests {
    private func saved() throws -> (ModelContainer, ModelContext) {
        try savedArticles(
            [Article(title: "x"), Tutorial(title: "Swift basics", difficulty: 1), Tutorial(title: "Swift macros", difficulty: 3),
             Tutorial(title: "Rust", difficulty: 4), News(title: "x", topic: "Swift")],
            listed: [0, 2, 4])
    }

    @Test func aPredicateOnTheRootMatchesEveryClass() throws {
        let (_, context) = try saved()
        let matches = try context.fetch(FetchDescriptor<Article>(predicate: #Predicate { $0.title == "x" }))
        #expect(matches.count == 2)
        #expect(matches.contains { type(of: $0) == Article.self } && matches.contains { $0 is News })
    }

    @Test func aSubclassPredicateMixesInheritedAndOwnProperties() throws {
        let (_, context) = try saved()
        let predicate = #Predicate<Tutorial> { $0.difficulty > 2 && $0.title.contains("Swift") }
        let matches = try context.fetch(FetchDescriptor(predicate: predicate))
        #expect(matches.map(\.title) == ["Swift macros"])
        let all = try context.fetch(FetchDescriptor<Tutorial>())
        #expect(matches.map(\.title) == all.filter { (try? predicate.evaluate($0)) == true }.map(\.title))
        #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == 1)
    }

    @Test func sortsByInheritedAndOwnProperties() throws {
        let (_, context) = try saved()
        let byTitle = try context.fetch(FetchDescriptor<Tutorial>(sortBy: [SortDescriptor(\.title, order: .reverse)]))
        #expect(byTitle.map(\.title) == ["Swift macros", "Swift basics", "Rust"])
        let byDifficulty = try context.fetch(FetchDescriptor<Tutorial>(sortBy: [SortDescriptor(\.difficulty, order: .reverse)]))
        #expect(byDifficulty.map(\.difficulty) == [4, 3, 1])
        var limited = FetchDescriptor<Article>(sortBy: [SortDescriptor(\.title)])
        limited.fetchLimit = 2
        limited.fetchOffset = 1
        #expect(try context.fetch(limited).map(\.title) == ["Swift basics", "Swift macros"])
    }

    @Test func aRelationshipToTheRootHoldsSubclasses() throws {
        let (container, _) = try saved()
        let context = ModelContext(container)
        let list = try #require(try context.fetch(FetchDescriptor<ReadingList>()).first)
        let members = list.articles.sorted { $0.title < $1.title || ($0.title == $1.title && $0 is News) }
        #expect(members.map(\.title) == ["Swift macros", "x", "x"])
        #expect((members[0] as? Tutorial)?.difficulty == 3)
        #expect(members.contains { type(of: $0) == Article.self } && members.contains { ($0 as? News)?.topic == "Swift" })
        let tutorial = try #require(members[0] as? Tutorial)
        #expect(tutorial.list === list)
        let onList = try context.fetch(FetchDescriptor<Tutorial>(predicate: #Predicate { $0.list?.name == "Weekend" }))
        #expect(onList.map(\.title) == ["Swift macros"])
    }

    @Test func aSubclassFetchFiltersOnTheDiscriminator() throws {
        let (container, context) = try saved()
        _ = try context.fetch(FetchDescriptor<Tutorial>(predicate: #Predicate { $0.difficulty > 2 }))
        let store = try container.store(for: "Article")
        #expect(store.executedStatements.last == #"SELECT "t0"."id", "t0"."title", "t0"."published", "t0"."list", "t0"."topic", "#
            + #""t0"."urgent", "t0"."difficulty", "t0"."_entity" FROM "Article" AS "t0" WHERE "t0"."_entity" = ? AND "#
            + #""t0"."difficulty" > ?"#)
        _ = try context.fetchCount(FetchDescriptor<Article>())
        #expect(store.executedStatements.last == #"SELECT COUNT(*) FROM "Article" AS "t0""#)
    }

    @Test func theSchemaKnowsTheHierarchy() throws {
        let container = try articlesContainer()
        let schema = container.schema
        let article = try #require(schema.entitiesByName["Article"])
        let tutorial = try #require(schema.entitiesByName["Tutorial"])
        #expect(tutorial.superentity === article && tutorial.superentityName == "Article")
        #expect(article.superentity == nil)
        #expect(Set(article.subentities.map(\.name)) == ["Tutorial", "News"])
        #expect(tutorial.inheritedProperties.map(\.name) == ["title", "published", "list"])
        #expect(tutorial.properties.map(\.name) == ["title", "published", "list", "difficulty"])
        #expect(tutorial.tableName == "Article")
        // Listing only a subclass brings its superclass in.
        #expect(Schema([Tutorial.self]).entitiesByName["Article"] != nil)
    }

    @Test func theTableHoldsEveryEntitysColumns() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        _ = try store.container(for: Article.self, Tutorial.self, News.self, ReadingList.self)
        let database = try Database(path: store.url.path)
        defer { try? database.close() }
        let sql = try database.fetchAll(sql: "SELECT sql FROM sqlite_master WHERE name = 'Article'") { $0.databaseValue(at: 0) }
        #expect(sql == [.text(#"CREATE TABLE "Article" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "published" REAL, "#
            + #""list" INTEGER, "topic" TEXT, "urgent" INTEGER, "difficulty" INTEGER, "_entity" TEXT NOT NULL DEFAULT 'Article')"#)])
    }
}

extension InheritanceQueryTests {
    @Test func propertiesToFetchStillMakesEachRowsClass() throws {
        let (_, context) = try saved()
        var descriptor = FetchDescriptor<Article>(sortBy: [SortDescriptor(\.title)])
        descriptor.propertiesToFetch = [\.title]
        let all = try context.fetch(descriptor)
        #expect(all.compactMap { ($0 as? Tutorial)?.difficulty } == [4, 1, 3])
        #expect(all.compactMap { ($0 as? News)?.topic } == ["Swift"])
    }
}
