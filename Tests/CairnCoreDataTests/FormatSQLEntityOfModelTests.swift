import CairnCoreData
import Foundation
import Testing

/// `FormatSQLEntity(entity)` is built once, as the entity is, and every `NSFetchRequest` reuses
/// it; two models that point at each other must still reach each other's columns.
@Suite("The format-predicate entity of a @Model, built once")
struct FormatSQLEntityOfModelTests {
    @Test("relationships are followed both ways, in SQL and in the rows fetched")
    func relationshipsBothWays() throws {
        let stops = FormatSQLEntity(Schema.Entity.of(VoyageStop.self))
        #expect(stops.table == "VoyageStop" && stops.validKeys == ["title", "voyage"])
        let voyages = try #require(stops.relationships["voyage"]).destination()
        #expect(voyages.table == "Voyage" && voyages.validKeys == ["name", "stops"])
        let back = try #require(voyages.relationships["stops"])
        #expect(back.kind == .toMany(foreignKey: "voyage"))
        #expect(back.destination().table == "VoyageStop")

        let sql = try FormatPredicate("voyage.name == 'North'").sqlCondition(for: stops).render().sql
        #expect(sql.contains("\"Voyage\"") && sql.contains("\"name\""), "\(sql)")

        let container = try ModelContainer(
            for: Voyage.self, VoyageStop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let north = Voyage(name: "North"), south = Voyage(name: "South")
        context.insert(north)
        context.insert(south)
        for (title, voyage) in [("Oslo", north), ("Tromsø", north), ("Lima", south)] {
            context.insert(VoyageStop(title: title, voyage: voyage))
        }
        try context.save()
        let request = NSFetchRequest<VoyageStop>(entityName: "VoyageStop")
        request.predicate = NSPredicate(format: "voyage.name == %@", "North")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        #expect(try context.fetch(request).map(\.title) == ["Oslo", "Tromsø"])
        let through = NSFetchRequest<Voyage>(entityName: "Voyage")
        through.predicate = NSPredicate(format: "ANY stops.title == %@", "Lima")
        #expect(try context.fetch(through).map(\.name) == ["South"])
    }

    @Test("the entity is the same value each time it is asked for")
    func builtOnce() {
        let entity = Schema.Entity.of(VoyageStop.self)
        let first = FormatSQLEntity(entity), second = FormatSQLEntity(entity)
        #expect(first.attributes == second.attributes && first.attributes == ["title": "title"])
        #expect(Set(first.relationships.keys) == Set(second.relationships.keys))
        #expect(first.primaryKey == entity.primaryKeyColumn)
    }
}
