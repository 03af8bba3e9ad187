import CairnCoreData
import Testing

/// A car of the kind Core Data projects' tests use, as a `@Model` class.
@Model
final class Car {
    var maker: String
    var model: String
    var numberPlate: String
    var price: Double

    init(maker: String, model: String, numberPlate: String, price: Double) {
        self.maker = maker
        self.model = model
        self.numberPlate = numberPlate
        self.price = price
    }
}

/// Four saved cars and a fresh context on their container.
private func savedCars() throws -> (ModelContainer, ModelContext) {
    let container = try ModelContainer(for: Schema([Car.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    let writer = ModelContext(container)
    writer.insert(Car(maker: "FIAT", model: "Panda", numberPlate: "FI-1", price: 9_000))
    writer.insert(Car(maker: "FIAT", model: "500", numberPlate: "FI-2", price: 14_000))
    writer.insert(Car(maker: "BMW", model: "M3", numberPlate: "BM-1", price: 70_000))
    writer.insert(Car(maker: "Alfa Romeo", model: "Giulia", numberPlate: "AR-1", price: 40_000))
    try writer.save()
    return (container, ModelContext(container))
}

@Suite("NSFetchRequest<any NSFetchRequestResult> and object IDs in dictionaries, as Core Data code writes them")
struct NSFetchRequestResultTests {
    @Test func dictionariesOfAnyResultRequestCastAsCoreDataUsersCastThem() throws {
        let (_, context) = try savedCars()
        let request = NSFetchRequest<any NSFetchRequestResult>(entityName: "Car")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["maker", "numberPlate"]
        request.predicate = NSPredicate(format: "maker == %@", "FIAT")
        request.sortDescriptors = [NSSortDescriptor(key: "numberPlate", ascending: true)]
        let rows = try context.fetch(request) as! [[String: Any]]
        #expect(rows.map { $0["numberPlate"] as? String } == ["FI-1", "FI-2"])
        #expect(rows.allSatisfy { $0["maker"] as? String == "FIAT" && $0.count == 2 })
        let dictionaries = try context.fetch(request) as? [NSDictionary]
        #expect(dictionaries?.count == 2)
    }

    @Test func generatedFetchRequestOfAnyResultCountsAndFetchesObjects() throws {
        let (_, context) = try savedCars()
        let request: NSFetchRequest<any NSFetchRequestResult> = Car.fetchRequest()
        #expect(request.entityName == "Car")
        request.predicate = NSPredicate(format: "price > %d", 10_000)
        request.resultType = .countResultType
        let counted = try context.fetch(request)
        #expect((counted.first as? NSNumber)?.intValue == 3)
        #expect(try context.count(for: request) == 3)

        request.resultType = .managedObjectResultType
        request.sortDescriptors = [NSSortDescriptor(key: "price", ascending: true)]
        let cars = try context.fetch(request) as! [Car]
        #expect(cars.map(\.model) == ["500", "Giulia", "M3"])

        request.resultType = .managedObjectIDResultType
        let ids = try context.fetch(request) as! [NSManagedObjectID]
        #expect(ids == cars.map(\.objectID))
        // Without an annotation the generated request is the model's own.
        let typed = Car.fetchRequest()
        let all: [Car] = try context.fetch(typed)
        #expect(all.count == 4)
    }

    @Test func modelsIdentifiersDictionariesAndNumbersAreResults() {
        func isResult(_ value: Any) -> Bool { value is any NSFetchRequestResult }
        #expect(isResult(Car(maker: "BMW", model: "i3", numberPlate: "BM-2", price: 1)))
        #expect(isResult(NSNumber(value: 1)))
        #expect(isResult(NSDictionary()))
        #expect(!isResult("a string"))
    }

    @Test func objectIDInPropertiesToFetchIsEachRowsIdentifier() throws {
        let (_, context) = try savedCars()
        let request = NSFetchRequest<NSDictionary>(entityName: "Car")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["objectID", "numberPlate"]
        request.sortDescriptors = [NSSortDescriptor(key: "numberPlate", ascending: true)]
        let rows = try context.fetch(request) as [NSDictionary]
        #expect(rows.map { $0["numberPlate"] as? String } == ["AR-1", "BM-1", "FI-1", "FI-2"])
        let ids = rows.compactMap { $0["objectID"] as? NSManagedObjectID }
        #expect(ids.count == 4)
        let cars = ids.compactMap { context.model(for: $0) as? Car }
        #expect(cars.map(\.numberPlate) == ["AR-1", "BM-1", "FI-1", "FI-2"])
        let entity = try #require(context.container.schema.entitiesByName["Car"])
        let select = try request.sqlSelect(for: FormatSQLEntity(entity))
        #expect(try select.render().sql.hasPrefix(#"SELECT "Car"."id" AS "objectID", "Car"."numberPlate" AS "numberPlate""#))
    }

    @Test func objectIDThroughAnEvaluatedObjectDescription() throws {
        let (_, context) = try savedCars()
        let objectID = NSExpressionDescription()
        objectID.name = "objectID"
        objectID.expression = NSExpression.expressionForEvaluatedObject()
        objectID.expressionResultType = .objectIDAttributeType
        let request = NSFetchRequest<any NSFetchRequestResult>(entityName: "Car")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [objectID, "price"]
        request.predicate = NSPredicate(format: "maker == 'BMW'")
        let rows = try context.fetch(request) as! [[String: Any]]
        let id = try #require(rows.first?["objectID"] as? NSManagedObjectID)
        #expect((context.model(for: id) as? Car)?.model == "M3")
        #expect(rows.first?["price"] as? Double == 70_000)
    }
}
