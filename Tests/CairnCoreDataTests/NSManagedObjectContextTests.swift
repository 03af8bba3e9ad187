import CairnCoreData
import Testing

/// A context of Core Data's kind over a container of saved cars, and the container.
private func carContext() throws -> (NSManagedObjectContext, ModelContainer) {
    let container = try ModelContainer(for: Schema([Car.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    context.persistentStoreCoordinator = NSPersistentStoreCoordinator(container: container)
    context.insert(Car(maker: "FIAT", model: "Panda", numberPlate: "FI-1", price: 9_000))
    context.insert(Car(maker: "BMW", model: "M3", numberPlate: "BM-1", price: 70_000))
    try context.save()
    return (context, container)
}

/// The car with a number plate, fetched through `context`.
private func car(_ plate: String, in context: NSManagedObjectContext) throws -> Car? {
    let request = Car.fetchRequest()
    request.predicate = NSPredicate(format: "numberPlate == %@", plate)
    return try context.fetch(request).first
}

/// Writes a new price for a car through another context of the container, as another
/// process or queue would.
private func repriceElsewhere(_ plate: String, to price: Double, in container: ModelContainer) throws {
    let other = ModelContext(container)
    let request = Car.fetchRequest()
    request.predicate = NSPredicate(format: "numberPlate == %@", plate)
    let cars: [Car] = try other.fetch(request)
    cars.first?.price = price
    try other.save()
}

/// Whether the context holds the car of `id` (asked in a function, so that no reference to the
/// car outlives the question).
private func isRegistered(_ id: NSManagedObjectID, in context: ModelContext) -> Bool {
    let car: Car? = context.registeredModel(for: id)
    return car != nil
}

@Suite("NSManagedObjectContext: reset, refresh, insert and delete with Core Data's signatures")
struct NSManagedObjectContextTests {
    @Test func resetDiscardsChangesAndForgetsObjects() throws {
        let (context, container) = try carContext()
        let modelContext = try #require(context.modelContext)
        let panda = try #require(try car("FI-1", in: context))
        let m3ID = try #require(try car("BM-1", in: context)?.objectID)
        panda.price = 1
        context.insert(Car(maker: "Lancia", model: "Ypsilon", numberPlate: "LA-1", price: 15_000))
        try repriceElsewhere("FI-1", to: 8_800, in: container)
        #expect(context.hasChanges)
        #expect(isRegistered(m3ID, in: modelContext))
        context.reset()
        #expect(!context.hasChanges)
        #expect(!isRegistered(m3ID, in: modelContext))
        #expect(panda.price == 8_800)
        #expect(try car("LA-1", in: context) == nil)
        #expect(try context.count(for: Car.fetchRequest()) == 2)
        // The object still held stays the context's: a later change is saved.
        panda.price = 8_500
        try context.save()
        let reread: [Car] = try ModelContext(container).fetch(Car.fetchRequest())
        #expect(reread.first { $0.numberPlate == "FI-1" }?.price == 8_500)
    }

    @Test func refreshAllObjectsReadsOthersCommitsAndKeepsChanges() throws {
        let (context, container) = try carContext()
        let panda = try #require(try car("FI-1", in: context))
        let m3 = try #require(try car("BM-1", in: context))
        m3.model = "M3 Touring"
        try repriceElsewhere("FI-1", to: 8_500, in: container)
        try repriceElsewhere("BM-1", to: 65_000, in: container)
        context.refreshAllObjects()
        #expect(panda.price == 8_500)
        #expect(m3.price == 65_000)
        #expect(m3.model == "M3 Touring")
        #expect(context.hasChanges)
    }

    @Test func refreshWithAndWithoutMergingChanges() throws {
        let (context, container) = try carContext()
        let panda = try #require(try car("FI-1", in: context))
        panda.model = "Panda 4x4"
        try repriceElsewhere("FI-1", to: 8_000, in: container)
        context.refresh(panda, mergeChanges: true)
        #expect(panda.price == 8_000)
        #expect(panda.model == "Panda 4x4")
        context.refresh(panda, mergeChanges: false)
        #expect(panda.model == "Panda")
        #expect(panda.price == 8_000)
        #expect(!context.hasChanges)
    }

    @Test func insertAndDeleteWithoutACoordinatorFailAtSave() throws {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let car = Car(maker: "FIAT", model: "Uno", numberPlate: "FI-9", price: 1)
        context.insert(car)
        context.delete(car)
        let error = #expect(throws: FormatPredicateError.self) { try context.save() }
        #expect(error?.message.contains("insert(_:) of a Car before the context had a persistentStoreCoordinator") == true)
        #expect(error?.message.contains("delete(_:) of a Car") == true)
    }

    @Test func objectsOfAnotherContextFailAtSaveAndTheRestIsSaved() throws {
        let (context, container) = try carContext()
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = NSPersistentStoreCoordinator(container: container)
        let panda = try #require(try car("FI-1", in: context))
        other.delete(panda)
        other.insert(panda)
        #expect(throws: FormatPredicateError.self) { try other.save() }
        try other.save()
        #expect(try other.count(for: Car.fetchRequest()) == 2)
        context.delete(panda)
        try context.save()
        #expect(try other.count(for: Car.fetchRequest()) == 1)
    }

    @Test func contextsAreEqualWhenTheyAreTheSameObject() throws {
        let (context, container) = try carContext()
        let panda = try #require(try car("FI-1", in: context))
        let same = NSManagedObjectContext(try #require(context.modelContext))
        #expect(context == context)
        #expect(context != same)
        #expect(panda.modelContext == context.modelContext)
        let other = NSManagedObjectContext(ModelContext(container))
        #expect(Set([context, context, other]).count == 2)
    }

    @Test func fetchRequestsAreEqualWhenTheyAskForTheSameThing() {
        let a = NSFetchRequest<Car>(entityName: "Car")
        let b = Car.fetchRequest()
        #expect(a == b)
        a.predicate = NSPredicate(format: "price > %d", 10)
        b.predicate = NSPredicate(format: "price > 10")
        a.sortDescriptors = [NSSortDescriptor(key: "price", ascending: true)]
        b.sortDescriptors = [NSSortDescriptor(key: "price", ascending: true)]
        #expect(a == b && a.hashValue == b.hashValue)
        b.fetchLimit = 5
        #expect(a != b)
        b.fetchLimit = 0
        b.propertiesToFetch = ["price"]
        #expect(a != b)
        a.propertiesToFetch = ["price"]
        #expect(a == b)
    }
}
