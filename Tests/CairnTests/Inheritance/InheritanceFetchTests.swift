import Foundation
import SwiftData
import Testing

@Suite("Model inheritance: saving and fetching")
struct InheritanceFetchTests {
    /// An article, a tutorial and a news item, saved, and a fresh context to read them back.
    private func savedArticles() throws -> (ModelContainer, ModelContext) {
        let container = try articlesContainer()
        let context = ModelContext(container)
        context.insert(Article(title: "Plain"))
        context.insert(Tutorial(title: "Swift basics", difficulty: 1))
        context.insert(News(title: "Release", topic: "Swift 6"))
        context.insert(Tutorial(title: "Swift macros", difficulty: 3))
        try context.save()
        return (container, ModelContext(container))
    }

    @Test func aFetchOfTheRootReturnsEachRowAsItsOwnClass() throws {
        let (_, context) = try savedArticles()
        let all = try context.fetch(FetchDescriptor<Article>(sortBy: [SortDescriptor(\.title)]))
        #expect(all.map(\.title) == ["Plain", "Release", "Swift basics", "Swift macros"])
        #expect(type(of: all[0]) == Article.self)
        let news = try #require(all[1] as? News)
        #expect(news.topic == "Swift 6")
        let basics = try #require(all[2] as? Tutorial)
        #expect(basics.difficulty == 1)
        #expect((all[3] as? Tutorial)?.difficulty == 3)
    }

    @Test func aFetchOfASubclassReturnsOnlyItsRows() throws {
        let (_, context) = try savedArticles()
        let tutorials = try context.fetch(FetchDescriptor<Tutorial>(sortBy: [SortDescriptor(\.difficulty, order: .reverse)]))
        #expect(tutorials.map(\.title) == ["Swift macros", "Swift basics"])
        #expect(try context.fetchCount(FetchDescriptor<Tutorial>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<News>()) == 1)
        #expect(try context.fetchCount(FetchDescriptor<Article>()) == 4)
    }

    @Test func aRowIsOneModelWhicheverClassFetchesIt() throws {
        let (_, context) = try savedArticles()
        let viaRoot = try context.fetch(FetchDescriptor<Article>(predicate: #Predicate { $0.title == "Swift macros" }))
        let viaSubclass = try context.fetch(FetchDescriptor<Tutorial>(predicate: #Predicate { $0.title == "Swift macros" }))
        #expect(viaRoot.count == 1 && viaSubclass.count == 1)
        #expect(viaRoot[0] === viaSubclass[0])
        let found = context.model(for: viaRoot[0].persistentModelID)
        #expect((found as? Tutorial) === viaSubclass[0])
        let fresh = ModelContext(context.container)
        #expect((fresh.model(for: viaRoot[0].persistentModelID) as? Tutorial)?.difficulty == 3)
    }

    @Test func changesToInheritedAndOwnPropertiesSave() throws {
        let (container, context) = try savedArticles()
        let tutorial = try #require(try context.fetch(FetchDescriptor<Tutorial>(predicate: #Predicate { $0.difficulty == 1 })).first)
        tutorial.title = "Swift basics, revised"
        tutorial.difficulty = 2
        tutorial.published = Date(timeIntervalSinceReferenceDate: 0)
        try context.save()
        let again = try ModelContext(container).fetch(FetchDescriptor<Tutorial>(sortBy: [SortDescriptor(\.difficulty)]))
        #expect(again.map(\.title) == ["Swift basics, revised", "Swift macros"])
        #expect(again.map(\.difficulty) == [2, 3])
        #expect(again[0].published == Date(timeIntervalSinceReferenceDate: 0))
    }

    @Test func aNewSubclassModelReadsItsValuesBeforeAndAfterInsert() throws {
        let container = try articlesContainer()
        let context = ModelContext(container)
        let news = News(title: "Beta", topic: "Linux")
        #expect(news.title == "Beta" && news.topic == "Linux" && news.urgent == nil)
        news.urgent = true
        context.insert(news)
        #expect(news.topic == "Linux" && news.urgent == true)
        try context.save()
        let fetched = try ModelContext(container).fetch(FetchDescriptor<News>())
        #expect(fetched.map(\.topic) == ["Linux"])
        #expect(fetched.first?.urgent == true)
    }

    @Test func deletingASubclassModelRemovesItsRow() throws {
        let (container, context) = try savedArticles()
        let news = try #require(try context.fetch(FetchDescriptor<News>()).first)
        context.delete(news)
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<News>()) == 0)
        #expect(try fresh.fetch(FetchDescriptor<Article>(sortBy: [SortDescriptor(\.title)])).map(\.title)
            == ["Plain", "Swift basics", "Swift macros"])
    }
}

extension InheritanceFetchTests {
    @Test func unsavedSubclassModelsJoinFetchesOfTheirClasses() throws {
        let (_, context) = try savedArticles()
        let draft = Tutorial(title: "Draft", difficulty: 9)
        context.insert(draft)
        let all = try context.fetch(FetchDescriptor<Article>(sortBy: [SortDescriptor(\.title)]))
        #expect(all.map(\.title) == ["Draft", "Plain", "Release", "Swift basics", "Swift macros"])
        #expect(all[0] === draft)
        let hard = try context.fetch(FetchDescriptor<Tutorial>(predicate: #Predicate { $0.difficulty > 2 }))
        #expect(Set(hard.map(\.title)) == ["Draft", "Swift macros"])
        #expect(try context.fetchCount(FetchDescriptor<News>()) == 1)
        #expect(try context.fetchCount(FetchDescriptor<Tutorial>()) == 3)
    }
}
