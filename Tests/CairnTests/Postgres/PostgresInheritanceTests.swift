import CairnTestSupport
import Foundation
import SwiftData
import Testing

@testable import Cairn

@Suite("Model inheritance on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresInheritanceTests {
    @Test("a hierarchy shares its root's table on the server as on SQLite")
    func hierarchyOnTheServer() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, Article.self, Tutorial.self, News.self, ReadingList.self)
            let context = ModelContext(container)
            context.insert(Article(title: "Plain"))
            context.insert(Tutorial(title: "Hard", difficulty: 5))
            context.insert(Tutorial(title: "Easy", difficulty: 1))
            context.insert(News(title: "Release", topic: "Swift"))
            try context.save()

            let fresh = ModelContext(container)
            let all = try fresh.fetch(FetchDescriptor<Article>(sortBy: [SortDescriptor(\.title)]))
            #expect(all.map(\.title) == ["Easy", "Hard", "Plain", "Release"])
            #expect(all.map { String(describing: type(of: $0)) } == ["Tutorial", "Tutorial", "Article", "News"])
            let hard = try fresh.fetch(FetchDescriptor<Tutorial>(predicate: #Predicate { $0.difficulty > 2 }))
            #expect(hard.map(\.title) == ["Hard"])
            let cast = #Predicate<Article> { ($0 as? Tutorial)?.difficulty ?? 0 > 2 || $0 is News }
            let matched = try fresh.fetch(FetchDescriptor(predicate: cast, sortBy: [SortDescriptor(\.title)]))
            #expect(matched.map(\.title) == all.filter { (try? cast.evaluate($0)) == true }.map(\.title))
            #expect(try fresh.fetchCount(FetchDescriptor<News>()) == 1)
        }
    }
}
