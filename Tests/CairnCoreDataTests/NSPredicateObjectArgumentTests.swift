import CairnCoreData
import Testing

/// An `NSObject` whose `isEqual(_:)` compares a value, as Core Data code passes them for `%@`.
final class Plate: NSObject {
    let number: String
    init(_ number: String) { self.number = number }
    override func isEqual(_ object: Any?) -> Bool { (object as? Plate)?.number == number }
    override var hash: Int { number.hashValue }
}

/// A `Hashable` struct.
struct Coordinate: Hashable {
    var x: Int
    var y: Int
}

/// A class with neither `Hashable` nor `NSObject`: `isEqual:` of such an object is identity.
final class Marker {}

@Suite("SELF compared with objects passed for %@, as isEqual: compares")
struct NSPredicateObjectArgumentTests {
    @Test func selfEqualsAnNSObjectByIsEqual() {
        let predicate = NSPredicate(format: "SELF == %@", Plate("AB-123"))
        #expect(predicate.evaluate(with: Plate("AB-123")))
        #expect(!predicate.evaluate(with: Plate("ZZ-999")))
        #expect(NSPredicate(format: "SELF != %@", Plate("AB-123")).evaluate(with: Plate("ZZ-999")))
        #expect(predicate.formatError == nil)
    }

    @Test func selfInACollectionOfObjects() {
        let plates = [Plate("AB-123"), Plate("CD-456")]
        let inPlates = NSPredicate(format: "SELF IN %@", plates)
        #expect(inPlates.evaluate(with: Plate("CD-456")))
        #expect(!inPlates.evaluate(with: Plate("EF-789")))
        let points: Set<Coordinate> = [Coordinate(x: 1, y: 2), Coordinate(x: 3, y: 4)]
        let inPoints = NSPredicate(format: "SELF IN %@", points)
        #expect(inPoints.evaluate(with: Coordinate(x: 3, y: 4)))
        #expect(!inPoints.evaluate(with: Coordinate(x: 4, y: 3)))
    }

    @Test func anySelfOverACollectionOfObjects() {
        let predicate = NSPredicate(format: "ANY SELF == %@", Plate("CD-456"))
        #expect(predicate.evaluate(with: [Plate("AB-123"), Plate("CD-456")]))
        #expect(!predicate.evaluate(with: [Plate("AB-123")]))
        #expect(NSPredicate(format: "ALL SELF == %@", Coordinate(x: 0, y: 0))
            .evaluate(with: [Coordinate(x: 0, y: 0), Coordinate(x: 0, y: 0)]))
    }

    @Test func anObjectOfAnotherClassComparesByIdentity() {
        let marker = Marker()
        let predicate = NSPredicate(format: "SELF == %@", marker)
        #expect(predicate.evaluate(with: marker))
        #expect(!predicate.evaluate(with: Marker()))
        #expect(NSPredicate(format: "SELF IN %@", [Marker(), marker]).evaluate(with: marker))
    }

    @Test func keysOfAnObjectCompareWithObjects() {
        let owner = Plate("AB-123")
        let predicate = NSPredicate(format: "plate == %@ AND spot IN %@", owner, [Coordinate(x: 1, y: 1)])
        #expect(predicate.evaluate(with: ["plate": Plate("AB-123"), "spot": Coordinate(x: 1, y: 1)]))
        #expect(!predicate.evaluate(with: ["plate": Plate("AB-123"), "spot": Coordinate(x: 2, y: 1)]))
    }

    @Test func anObjectHasNoSQLValue() throws {
        let predicate = NSPredicate(format: "name == %@", Plate("AB-123"))
        #expect(predicate.formatError == nil)
        let (_, context) = try storedExpenses()
        let request = NSFetchRequest<StoredExpense>(entityName: "StoredExpense")
        request.predicate = predicate
        let error = #expect(throws: FormatPredicateError.self) { _ = try context.fetch(request) as [StoredExpense] }
        #expect(error?.message.contains("Plate") == true)
        #expect(error?.message.contains("FormatValueConvertible") == true)
    }
}
