@testable import Cairn
import CairnSQLite
import Foundation
import SwiftData
import Testing

/// The store before its model had subclasses.
enum ArticlesV1 {
    @Model
    final class Article {
        var title: String
        init(title: String) { self.title = title }
    }
}

@Suite("Model inheritance: a store that gains subclasses")
struct InheritanceMigrationTests {
    @Test func subclassesAddedToAnExistingTableMigrateLightweight() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let before = ModelContext(try store.container(for: ArticlesV1.Article.self))
        before.insert(ArticlesV1.Article(title: "Old"))
        try before.save()

        let container = try store.container(for: Article.self, Tutorial.self, News.self, ReadingList.self)
        let context = ModelContext(container)
        let old = try context.fetch(FetchDescriptor<Article>())
        #expect(old.map(\.title) == ["Old"])
        #expect(old.first.map { type(of: $0) == Article.self } == true, "rows stored before are the root's")
        context.insert(Tutorial(title: "New", difficulty: 2))
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Tutorial>()).map(\.title) == ["New"])
        #expect(try fresh.fetchCount(FetchDescriptor<Article>()) == 2)

        let database = try Database(path: store.url.path)
        defer { try? database.close() }
        let sql = try database.fetchAll(sql: "SELECT sql FROM sqlite_master WHERE name = 'Article'") { $0.databaseValue(at: 0) }
        #expect(sql == [.text(#"CREATE TABLE "Article" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "#
            + #""_entity" TEXT NOT NULL DEFAULT 'Article', "published" REAL, "list" INTEGER, "topic" TEXT, "#
            + #""urgent" INTEGER, "difficulty" INTEGER)"#)])
    }
}
