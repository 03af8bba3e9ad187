import CairnCoreData
import Foundation
import Testing

@Model final class Badge {
    var code: UUID
    var name: String

    init(code: UUID, name: String) {
        self.code = code
        self.name = name
    }
}

/// A UUID argument of a format predicate is bound as a `UUID` attribute is stored: its
/// lowercase text.
@Suite("NSPredicate: UUID arguments against UUID attributes")
struct UUIDFormatPredicateTests {
    @Test func aUUIDArgumentFindsTheStoredAttribute() throws {
        let codes = [UUID(), UUID(), UUID()]
        let container = try ModelContainer(
            for: Schema([Badge.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        for (index, code) in codes.enumerated() { context.insert(Badge(code: code, name: "b\(index)")) }
        try context.save()

        let request = NSFetchRequest<Badge>(entityName: "Badge")
        request.predicate = NSPredicate(format: "code == %@", codes[1])
        #expect(try ModelContext(container).fetch(request).map(\.name) == ["b1"])
        request.predicate = NSPredicate(format: "code IN %@", [codes[2], codes[0]])
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        #expect(try ModelContext(container).fetch(request).map(\.name) == ["b0", "b2"])
        request.predicate = NSPredicate(format: "code != %@", codes[0])
        #expect(try ModelContext(container).fetch(request).map(\.name) == ["b1", "b2"])
    }
}
