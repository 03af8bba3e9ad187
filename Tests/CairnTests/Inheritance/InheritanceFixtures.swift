import SwiftData
import Foundation

// A hierarchy as SwiftData users write one: a root and two subclasses, one with a default
// value, and a model that relates to the root type.
@Model
class Article {
    var title: String
    var published: Date?
    var list: ReadingList?

    init(title: String) { self.title = title }
}

@Model
class Tutorial: Article {
    var difficulty: Int

    init(title: String, difficulty: Int) {
        self.difficulty = difficulty
        super.init(title: title)
    }
}

@Model
class News: Article {
    var topic: String = ""
    var urgent: Bool?

    init(title: String, topic: String) {
        super.init(title: title)
        self.topic = topic
    }
}

@Model
final class ReadingList {
    var name: String
    @Relationship(inverse: \Article.list) var articles: [Article] = []

    init(name: String) { self.name = name }
}

/// An in-memory container of the hierarchy, listed as users list it.
func articlesContainer() throws -> ModelContainer {
    try memoryContainer(for: Article.self, Tutorial.self, News.self, ReadingList.self)
}

/// `items` saved in a new container, those at `listed` on a reading list named "Weekend", and a
/// fresh context to read them back.
func savedArticles(_ items: [Article], listed: [Int] = []) throws -> (ModelContainer, ModelContext) {
    let container = try articlesContainer()
    let context = ModelContext(container)
    let list = ReadingList(name: "Weekend")
    context.insert(list)
    for item in items { context.insert(item) }
    list.articles = listed.map { items[$0] }
    try context.save()
    return (container, ModelContext(container))
}
