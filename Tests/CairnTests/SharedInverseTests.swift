import Cairn
import Testing

// Apple's Backyard Birds declares two lists of plants with one inverse; each list would read
// back the plants of both, so the container refuses the schema.

@Model
final class SharedInverseYard {
    var name: String
    @Relationship(inverse: \SharedInversePlant.yard) var leadingPlants: [SharedInversePlant] = []
    @Relationship(inverse: \SharedInversePlant.yard) var trailingPlants: [SharedInversePlant] = []

    init(name: String) { self.name = name }
}

@Model
final class SharedInversePlant {
    var species: String
    var yard: SharedInverseYard?

    init(species: String) { self.species = species }
}

/// The two sides name different inverses.
@Model
final class CrossedInverseYard {
    var name: String
    var leadingPlants: [CrossedInversePlant] = []
    @Relationship(inverse: \CrossedInversePlant.yard) var trailingPlants: [CrossedInversePlant] = []

    init(name: String) { self.name = name }
}

@Model
final class CrossedInversePlant {
    var species: String
    @Relationship(inverse: \CrossedInverseYard.leadingPlants) var yard: CrossedInverseYard?

    init(species: String) { self.species = species }
}

/// The fix the error suggests: each list has an inverse of its own.
@Model
final class OwnInverseYard {
    var name: String
    @Relationship(inverse: \OwnInversePlant.leadingYard) var leadingPlants: [OwnInversePlant] = []
    @Relationship(inverse: \OwnInversePlant.trailingYard) var trailingPlants: [OwnInversePlant] = []

    init(name: String) { self.name = name }
}

@Model
final class OwnInversePlant {
    var species: String
    var leadingYard: OwnInverseYard?
    var trailingYard: OwnInverseYard?

    init(species: String) { self.species = species }
}

/// The other fix: one list keeps the inverse, the other declares none.
@Model
final class OneInverseYard {
    var name: String
    @Relationship(inverse: \OneInversePlant.yard) var leadingPlants: [OneInversePlant] = []
    var trailingPlants: [OneInversePlant] = []

    init(name: String) { self.name = name }
}

@Model
final class OneInversePlant {
    var species: String
    var yard: OneInverseYard?

    init(species: String) { self.species = species }
}

@Suite("Relationships: two relationships that declare one inverse")
struct SharedInverseTests {
    @Test func theContainerRefusesTwoRelationshipsWithOneInverse() throws {
        let error = #expect(throws: ModelError.self) {
            try ModelContainer(
                for: SharedInverseYard.self, SharedInversePlant.self,
                configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect(error?.kind == .invalidSchema)
        #expect(error?.entityName == "SharedInverseYard")
        #expect(error?.propertyName == "trailingPlants")
        #expect(error?.description == """
            SharedInverseYard.leadingPlants and SharedInverseYard.trailingPlants both declare \
            \\SharedInversePlant.yard as their inverse, but an inverse belongs to one relationship: each \
            would read back the models of both. Give SharedInverseYard.trailingPlants its own inverse (add \
            a property of type SharedInverseYard? to SharedInversePlant and name it in \
            @Relationship(inverse:)), or declare it without an inverse \
            [entity 'SharedInverseYard', property 'trailingPlants', value \\SharedInversePlant.yard]
            """)
    }

    @Test func theContainerRefusesInversesThatDoNotNameEachOther() throws {
        let error = #expect(throws: ModelError.self) {
            try ModelContainer(
                for: CrossedInverseYard.self, CrossedInversePlant.self,
                configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect(error?.kind == .invalidSchema)
        #expect(error?.description == """
            CrossedInverseYard.trailingPlants declares \\CrossedInversePlant.yard as its inverse, but \
            CrossedInversePlant.yard declares \\CrossedInverseYard.leadingPlants: an inverse pairs two \
            relationships that name each other, and these would read back each other's models. Make the two \
            declarations agree, or give CrossedInverseYard.trailingPlants its own inverse property on \
            CrossedInversePlant [entity 'CrossedInverseYard', property 'trailingPlants', value \\CrossedInversePlant.yard]
            """)
    }

    @Test func listsWithInversesOfTheirOwnReadBackWhatWasSaved() throws {
        let container = try ModelContainer(
            for: OwnInverseYard.self, OwnInversePlant.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let yard = OwnInverseYard(name: "Backyard")
        context.insert(yard)
        yard.leadingPlants = ["fern", "ivy", "moss"].map { OwnInversePlant(species: $0) }
        yard.trailingPlants = ["rose", "sage", "thyme"].map { OwnInversePlant(species: $0) }
        try context.save()

        let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<OwnInverseYard>()).first)
        #expect(fetched.leadingPlants.map(\.species).sorted() == ["fern", "ivy", "moss"])
        #expect(fetched.trailingPlants.map(\.species).sorted() == ["rose", "sage", "thyme"])
        #expect(fetched.trailingPlants.map { $0.trailingYard?.name } == ["Backyard", "Backyard", "Backyard"])
        #expect(fetched.trailingPlants.map { $0.leadingYard?.name } == [nil, nil, nil])
    }

    @Test func aListWithoutAnInverseDoesNotTakeTheOtherListsInverse() throws {
        let container = try ModelContainer(
            for: OneInverseYard.self, OneInversePlant.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let yard = OneInverseYard(name: "Backyard")
        context.insert(yard)
        yard.leadingPlants = ["fern", "ivy", "moss"].map { OneInversePlant(species: $0) }
        yard.trailingPlants = ["rose", "sage", "thyme"].map { OneInversePlant(species: $0) }
        try context.save()

        let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<OneInverseYard>()).first)
        #expect(fetched.leadingPlants.map(\.species).sorted() == ["fern", "ivy", "moss"])
        #expect(fetched.trailingPlants.map(\.species).sorted() == ["rose", "sage", "thyme"])
        #expect(fetched.trailingPlants.allSatisfy { $0.yard == nil })
    }
}
