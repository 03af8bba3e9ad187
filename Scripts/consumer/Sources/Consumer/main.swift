import Cairn
import CoreData
import Foundation

// Each of Cairn's three surfaces once, over one in-memory store: what a package that depends on
// Cairn by version can write. Exits non-zero if any answer is not the expected one.

@Model
final class Note {
    var title: String
    var words: Int
    init(title: String, words: Int) {
        self.title = title
        self.words = words
    }
}

@Table("tallies")
struct Tally {
    let id: Int
    var label = ""
    var count = 0
}

func check(_ condition: Bool, _ what: String) {
    guard condition else {
        print("consumer: \(what) is wrong")
        exit(1)
    }
    print("consumer: \(what) ok")
}

let container = try ModelContainer(for: Note.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let context = ModelContext(container)
context.insert(Note(title: "Groceries", words: 12))
context.insert(Note(title: "Travel plans", words: 40))
try context.save()

let long = try context.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.words > 20 }))
check(long.map(\.title) == ["Travel plans"], "SwiftData #Predicate fetch")

let request = NSFetchRequest<Note>(entityName: "Note")
request.predicate = NSPredicate(format: "title BEGINSWITH[c] %@", "groc")
check(try context.fetch(request).map(\.words) == [12], "Core Data format predicate fetch")

let database = try DatabaseQueue()
try database.write { db in
    try db.execute(sql: #"CREATE TABLE "tallies" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL, "count" INTEGER NOT NULL)"#)
    try Tally.insert { Tally.Draft(label: "a", count: 3) }.execute(db)
    try Tally.insert { Tally.Draft(label: "b", count: 5) }.execute(db)
}
let total = try database.read { db in try Tally.select { $0.count.sum() }.fetchOne(db) }
check(total == 8, "typed SQL aggregate")
