import Foundation
import SwiftData
import Testing

// SwiftData's model inheritance (iOS 26), as its documentation writes it.
@Model
class Article {
    var title: String
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
    init(title: String, topic: String) {
        super.init(title: title)
        self.topic = topic
    }
}

@Model
class Lesson: Tutorial {
    var minutes: Int = 0
    init(title: String, difficulty: Int, minutes: Int) {
        super.init(title: title, difficulty: difficulty)
        self.minutes = minutes
    }
}

@Suite("@Model subclasses under import SwiftData")
struct ModelInheritanceTests {
    @Test func subclassesSaveFetchAndFilterAsSwiftDataDoes() throws {
        let container = try ModelContainer(
            for: Article.self, Tutorial.self, News.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Article(title: "About"))
        context.insert(Tutorial(title: "Swift", difficulty: 3))
        context.insert(News(title: "Release", topic: "Linux"))
        try context.save()

        let fresh = ModelContext(container)
        let all = try fresh.fetch(FetchDescriptor<Article>(sortBy: [SortDescriptor(\.title)]))
        #expect(all.map(\.title) == ["About", "Release", "Swift"])
        #expect(all[1] is News && all[2] is Tutorial && !(all[0] is Tutorial))
        let hard = try fresh.fetch(FetchDescriptor<Tutorial>(predicate: #Predicate { $0.difficulty > 2 && $0.title.contains("Sw") }))
        #expect(hard.map(\.title) == ["Swift"])
        let tutorials = try fresh.fetch(FetchDescriptor<Article>(predicate: #Predicate { $0 is Tutorial }))
        #expect(tutorials.map(\.title) == ["Swift"])
        #expect(try fresh.fetchCount(FetchDescriptor<News>()) == 1)
    }

    @Test func aSubclassOfASubclassIsBothAndItsOwn() throws {
        let container = try ModelContainer(
            for: Article.self, Tutorial.self, Lesson.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Tutorial(title: "Swift", difficulty: 3))
        context.insert(Lesson(title: "Macros", difficulty: 4, minutes: 45))
        try context.save()

        let fresh = ModelContext(container)
        let tutorials = try fresh.fetch(FetchDescriptor<Tutorial>(sortBy: [SortDescriptor(\.title)]))
        #expect(tutorials.map(\.title) == ["Macros", "Swift"])
        let lesson = try #require(tutorials.first as? Lesson)
        #expect(lesson.minutes == 45 && lesson.difficulty == 4)
        #expect(try fresh.fetch(FetchDescriptor<Lesson>(predicate: #Predicate { $0.minutes > 30 && $0.difficulty > 3 }))
            .map(\.title) == ["Macros"])
        #expect(try fresh.fetchCount(FetchDescriptor<Article>(predicate: #Predicate { $0 is Tutorial })) == 2)
        lesson.minutes = 50
        lesson.title = "Macros 2"
        try fresh.save()
        let again = try ModelContext(container).fetch(FetchDescriptor<Lesson>())
        #expect(again.map(\.title) == ["Macros 2"] && again.map(\.minutes) == [50])
    }
}
