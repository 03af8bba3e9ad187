import Cairn
import Foundation
import Testing

/// `@Model` classes in the typed SQL builder: SwiftData's missing aggregates, run in SQL on the
/// rows a `ModelContext` saved, and checked against the same values computed in Swift.
@Suite("@Model classes as typed-SQL tables")
struct ModelAsTableTests {
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// (title, minutes, calories, isFavorite, hours after `start`)
    static let rows: [(String, Int, Double, Bool, Double)] = [
        ("Walk", 20, 90.5, false, 0),
        ("Run", 30, 310.25, true, 5),
        ("Swim", 45, 402, false, 26),
        ("Ride", 90, 800.75, true, 50),
        ("Yoga", 60, 180, false, 3),
    ]

    let container: ModelContainer
    let workouts: [Workout]

    init() throws {
        container = try memoryContainer(for: Workout.self)
        let context = ModelContext(container)
        workouts = Self.rows.map { title, minutes, calories, isFavorite, hours in
            let workout = Workout(
                title: title, startedAt: Self.start.addingTimeInterval(hours * 3600), minutes: minutes,
                calories: calories)
            workout.isFavorite = isFavorite
            context.insert(workout)
            return workout
        }
        try context.save()
    }

    @Test("the seed's query: sum of calories of workouts of 30 minutes or more")
    func seedSum() throws {
        let query = Workout.where { $0.minutes.gte(30) }.select { $0.calories.sum() }
        #expect(try query.render().sql
            == #"SELECT SUM("Workout"."calories") FROM "Workout" WHERE "Workout"."minutes" >= ?"#)
        let total = try container.read(for: Workout.self) { db in try query.fetchOne(db) }
        let expected = workouts.filter { $0.minutes >= 30 }.map(\.calories).reduce(0, +)
        #expect(total == .some(expected))
        #expect(expected == 1693)
    }

    @Test("avg, min, max and count with a where clause match Swift's values")
    func aggregatesWithWhere() throws {
        let query = Workout
            .where { $0.calories.gt(100) }
            .select { ($0.minutes.avg(), $0.calories.min(), $0.calories.max(), $0.count(), $0.startedAt.max()) }
        #expect(try query.render().sql == #"SELECT AVG("Workout"."minutes"), MIN("Workout"."calories"), "#
            + #"MAX("Workout"."calories"), COUNT("Workout"."id"), MAX("Workout"."startedAt") "#
            + #"FROM "Workout" WHERE "Workout"."calories" > ?"#)
        let row = try #require(try container.read(for: Workout.self) { db in try query.fetchOne(db) })
        let matching = workouts.filter { $0.calories > 100 }
        #expect(row.0 == Double(matching.map(\.minutes).reduce(0, +)) / Double(matching.count))
        #expect(row.1 == matching.map(\.calories).min())
        #expect(row.2 == matching.map(\.calories).max())
        #expect(row.3 == matching.count)
        // Dates are stored as the typed SQL layer reads them (seconds since 2001).
        #expect(row.4 == matching.map(\.startedAt).max())
        let count = try container.read(for: Workout.self) { db in
            try Workout.where(\.isFavorite).fetchCount(db)
        }
        #expect(count == workouts.filter(\.isFavorite).count)
    }

    @Test("a Date attribute's column binds and reads seconds since 2001, as the store holds it")
    func dateColumnsUseTheStoresREAL() throws {
        let cutoff = Self.start.addingTimeInterval(4 * 3600)
        let later = Workout.where { $0.startedAt > cutoff }.order(by: \.startedAt).select(\.title)
        #expect(try later.render().arguments == [.real(cutoff.timeIntervalSinceReferenceDate)])
        let titles = try container.read(for: Workout.self) { db in try later.fetchAll(db) }
        #expect(titles == workouts.filter { $0.startedAt > cutoff }.sorted { $0.startedAt < $1.startedAt }.map(\.title))
        #expect(titles == ["Run", "Swim", "Ride"])
        // SQLite's date functions read the REAL as seconds since 2001.
        let days = try container.read(for: Workout.self) { db in
            try Workout.order(by: \.startedAt).select { $0.startedAt.day }.fetchAll(db)
        }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        #expect(days == workouts.map(\.startedAt).sorted().map { utc.component(.day, from: $0) })
    }

    @Test("group(by:) totals per group, ordered, match a Swift grouping")
    func groupedTotals() throws {
        let query = Workout
            .group(by: \.isFavorite)
            .order(by: \.isFavorite)
            .select { ($0.isFavorite, $0.calories.total(), $0.minutes.sum(), $0.count()) }
        #expect(try query.render().sql == #"SELECT "Workout"."isFavorite", TOTAL("Workout"."calories"), "#
            + #"SUM("Workout"."minutes"), COUNT("Workout"."id") FROM "Workout" "#
            + #"GROUP BY "Workout"."isFavorite" ORDER BY "Workout"."isFavorite" ASC"#)
        let rows = try container.read(for: Workout.self) { db in try query.fetchAll(db) }
        let expected = [false, true].map { flag in
            let group = workouts.filter { $0.isFavorite == flag }
            return (flag, group.map(\.calories).reduce(0, +), group.map(\.minutes).reduce(0, +), group.count)
        }
        #expect(rows.count == expected.count)
        for (row, wanted) in zip(rows, expected) {
            #expect(row.0 == wanted.0)
            #expect(row.1 == wanted.1)
            #expect(row.2 == wanted.2)
            #expect(row.3 == wanted.3)
        }
    }

    @Test("having filters groups by an aggregate")
    func having() throws {
        let query = Workout
            .group(by: \.isFavorite)
            .having { $0.calories.sum().gt(1000) && $0.count().gte(2) }
            .select { $0.isFavorite }
        #expect(try query.render().sql == #"SELECT "Workout"."isFavorite" FROM "Workout" "#
            + #"GROUP BY "Workout"."isFavorite" HAVING SUM("Workout"."calories") > ? AND COUNT("Workout"."id") >= ?"#)
        let flags = try container.read(for: Workout.self) { db in try query.fetchAll(db) }
        let expected = [false, true].filter { flag in
            let group = workouts.filter { $0.isFavorite == flag }
            return group.map(\.calories).reduce(0, +) > 1000 && group.count >= 2
        }
        #expect(flags == expected)
        #expect(flags == [true])
    }

    @Test("rows changed through a context are what the next typed query sees")
    func seesContextChanges() throws {
        let context = ModelContext(container)
        let all = try context.fetch(FetchDescriptor<Workout>())
        for workout in all where workout.minutes < 30 { context.delete(workout) }
        try context.save()
        let query = Workout.select { $0.minutes.min() }
        let shortest = try container.read(for: Workout.self) { db in try query.fetchOne(db) }
        #expect(shortest == .some(30))
    }

    @Test("whole model rows are not decoded: the error says to select columns")
    func wholeRowsThrow() throws {
        #expect(throws: ModelError.self) {
            try container.read(for: Workout.self) { db in try Workout.all.fetchAll(db) }
        }
        do {
            _ = try container.read(for: Workout.self) { db in try Workout.all.fetchAll(db) }
        } catch let error as ModelError {
            #expect(error.description.contains("select columns"))
        }
    }

    @Test("a model with its own id counts by rowid and matches UUIDs as stored")
    func ownIDModel() throws {
        let container = try memoryContainer(for: Bookmark.self)
        let context = ModelContext(container)
        let bookmarks = [Bookmark(title: "Swift"), Bookmark(title: "SQLite"), Bookmark(title: "Linux")]
        for bookmark in bookmarks { context.insert(bookmark) }
        try context.save()
        let query = Bookmark.where { $0.id.eq(bookmarks[1].id) }.select { ($0.title, $0.count()) }
        #expect(try query.render().sql == #"SELECT "Bookmark"."title", COUNT("Bookmark"."rowid") "#
            + #"FROM "Bookmark" WHERE "Bookmark"."id" = ?"#)
        let row = try container.read(for: Bookmark.self) { db in try query.fetchOne(db) }
        #expect(row?.0 == "SQLite")
        #expect(row?.1 == 1)
    }

    @Test("the column list holds attributes and to-one keys, not to-many relationships")
    func columnLists() {
        #expect(Workout.tableName == "Workout")
        #expect(Workout.columns.allColumns.map(\.name)
            == ["title", "startedAt", "finishedAt", "minutes", "calories", "isFavorite"])
        #expect(Item.columns.allColumns.map(\.name) == ["title", "trip"])
        #expect(Trip.columns.allColumns.map(\.name) == ["name"])
    }
}

enum Intensity: String, Codable { case easy, hard }

/// A public model with an internal-typed and a private property: the generated columns must
/// stay as visible as their properties for this to compile.
@Model
public final class PublicSession {
    public var title: String = ""
    var intensity: Intensity = Intensity.easy
    private var note: String = ""

    init(title: String, intensity: Intensity) {
        self.title = title
        self.intensity = intensity
    }
}

@Suite("@Model tables: access levels")
struct ModelTableAccessTests {
    @Test("a public model's table lists every stored column; private properties have no typed column")
    func publicModel() throws {
        #expect(PublicSession.columns.allColumns.map(\.name) == ["title", "intensity", "note"])
        let container = try memoryContainer(for: PublicSession.self)
        let context = ModelContext(container)
        context.insert(PublicSession(title: "Intervals", intensity: .hard))
        context.insert(PublicSession(title: "Stretch", intensity: .easy))
        try context.save()
        let query = PublicSession.where { $0.title.hasPrefix("Int") }.select { $0.title }
        let titles = try container.read(for: PublicSession.self) { db in try query.fetchAll(db) }
        #expect(titles == ["Intervals"])
    }
}
