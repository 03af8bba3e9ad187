@testable import Cairn
import Testing

@Suite("mainContext and autosave")
struct MainContextTests {
    @MainActor
    @Test("mainContext is one context with autosave on; other contexts have it off")
    func mainContext() throws {
        let container = try memoryContainer(for: Workout.self)
        #expect(container.mainContext === container.mainContext)
        #expect(container.mainContext.autosaveEnabled)
        #expect(!ModelContext(container).autosaveEnabled)
        #expect(container.mainContext.container === container)
    }

    @MainActor
    @Test("the main context saves by itself soon after a change")
    func autosave() async throws {
        let container = try memoryContainer(for: Workout.self)
        let context = container.mainContext
        context.insert(Workout(title: "Run", startedAt: .now, minutes: 30, calories: 200))
        #expect(context.hasChanges)
        // Let the main actor run the autosave it scheduled (bounded: no waiting on time).
        for _ in 0..<100 where context.hasChanges { await Task.yield() }
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Workout>()) == 1)
    }

    /// No caller can catch an autosave's error: a failure keeps the changes, records the error
    /// and says so on standard error, and a later change that makes the save valid saves.
    @MainActor
    @Test("a failing autosave keeps the changes and reports the error; a later one succeeds")
    func failingAutosave() async throws {
        let container = try memoryContainer(for: Owner.self, Pet.self)
        let context = container.mainContext
        let owner = Owner(name: "Ann")
        context.insert(owner)
        owner.pets.append(Pet(name: "Rex"))
        try context.save()
        context.delete(owner)  // .deny with a pet: the save must fail
        for _ in 0..<100 where context.lastAutosaveError == nil { await Task.yield() }
        #expect(context.lastAutosaveError != nil)
        #expect(context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Owner>()) == 1)
        context.rollback()
        let pet = try #require(try context.fetch(FetchDescriptor<Pet>()).first)
        context.delete(pet)  // a valid change: the next autosave succeeds and clears the error
        for _ in 0..<100 where context.hasChanges { await Task.yield() }
        #expect(!context.hasChanges)
        #expect(context.lastAutosaveError == nil)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Pet>()) == 0)
    }

    @MainActor
    @Test("with autosave off, nothing is saved until save()")
    func autosaveOff() async throws {
        let container = try memoryContainer(for: Workout.self)
        let context = container.mainContext
        context.autosaveEnabled = false
        context.insert(Workout(title: "Run", startedAt: .now, minutes: 30, calories: 200))
        for _ in 0..<20 { await Task.yield() }
        #expect(context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Workout>()) == 0)
    }
}

@Suite("ModelConfiguration")
struct ConfigurationTests {
    @Test("the default store is under XDG_DATA_HOME or ~/.local/share, per program and name")
    func defaultLocation() {
        let url = ModelConfiguration.defaultURL(name: "default")
        #expect(url.lastPathComponent == "default.store")
        let program = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        #expect(url.deletingLastPathComponent().lastPathComponent == program)
        let base = url.deletingLastPathComponent().deletingLastPathComponent().path
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            #expect(base == URL(fileURLWithPath: xdg).path)
        } else {
            #expect(base.hasSuffix("/.local/share"))
        }
        #expect(ModelConfiguration().url == url)
        #expect(ModelConfiguration("Archive").url.lastPathComponent == "Archive.store")
    }

    @Test("in-memory configurations are private to their container")
    func inMemory() throws {
        let configuration = ModelConfiguration(isStoredInMemoryOnly: true)
        #expect(configuration.isStoredInMemoryOnly)
        #expect(configuration.url.path == "/dev/null")
        let first = try ModelContainer(for: Workout.self, configurations: configuration)
        let second = try ModelContainer(for: Workout.self, configurations: configuration)
        let context = ModelContext(first)
        context.insert(Workout(title: "Run", startedAt: .now, minutes: 30, calories: 200))
        try context.save()
        #expect(try ModelContext(second).fetchCount(FetchDescriptor<Workout>()) == 0)
    }

    @Test("allowsSave: false opens read-only and refuses to save")
    func readOnly() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        do {
            let context = ModelContext(try store.container(for: Workout.self))
            context.insert(Workout(title: "Run", startedAt: .now, minutes: 30, calories: 200))
            try context.save()
        }
        let container = try ModelContainer(
            for: Workout.self, configurations: ModelConfiguration(url: store.url, allowsSave: false))
        let context = ModelContext(container)
        let run = try #require(try context.fetch(FetchDescriptor<Workout>()).first)
        run.minutes = 99
        let error = try #require(throws: ModelError.self) { try context.save() }
        #expect(error.kind == .storeFailure)
        #expect(try ModelContext(try store.container(for: Workout.self)).fetch(FetchDescriptor<Workout>()).first?.minutes == 30)
    }

    @Test("a configuration name that cannot be a file name is rejected")
    func invalidName() {
        #expect(throws: SwiftDataError.configurationFileNameContainsInvalidCharacters) {
            _ = try ModelContainer(for: Workout.self, configurations: ModelConfiguration("a/b", isStoredInMemoryOnly: true))
        }
    }

    @MainActor
    @Test("a container and its main context do not keep each other alive")
    func containerAndMainContextRelease() throws {
        weak var container: ModelContainer?
        weak var context: ModelContext?
        do {
            let made = try memoryContainer(for: Workout.self)
            made.mainContext.insert(Workout(title: "Run", startedAt: .now, minutes: 30, calories: 200))
            container = made
            context = made.mainContext
        }
        #expect(container == nil)
        #expect(context == nil)
    }

    @MainActor
    @Test("a main context outlives the container it came from, with its stores and changes")
    func mainContextOutlivesItsContainer() throws {
        weak var original: ModelContainer?
        let context: ModelContext
        do {
            let container = try memoryContainer(for: Workout.self)
            original = container
            context = container.mainContext
            context.autosaveEnabled = false
            context.insert(Workout(title: "Run", startedAt: .now, minutes: 30, calories: 200))
        }
        #expect(original == nil)
        #expect(context.hasChanges)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Workout>()) == 1)
        // A new handle on the same stores, whose main context is this one.
        let container = context.container
        #expect(container.mainContext === context)
        #expect(context.container === container)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title) == ["Run"])
    }
}
