import Testing

@Suite("@ModelActor expansion")
struct ModelActorMacroTests {
    @Test("an actor gets the executor, the container, init(modelContainer:) and the conformance")
    func seedStore() {
        assertMacroExpansion(
            """
            @ModelActor
            actor WorkoutStore {
                func favoriteCount() throws -> Int { 0 }
            }
            """,
            expandedSource: """
            actor WorkoutStore {
                func favoriteCount() throws -> Int { 0 }

                nonisolated let modelExecutor: any Cairn.ModelExecutor

                nonisolated let modelContainer: Cairn.ModelContainer

                init(modelContainer: Cairn.ModelContainer) {
                    let modelContext = Cairn.ModelContext(modelContainer)
                    self.modelExecutor = Cairn.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension WorkoutStore: Cairn.ModelActor {
            }
            """)
    }

    @Test("a public actor gets public members")
    func publicActor() {
        assertExpansionContains(
            "@ModelActor public actor Importer {}",
            [
                "public nonisolated let modelExecutor: any Cairn.ModelExecutor",
                "public nonisolated let modelContainer: Cairn.ModelContainer",
                "public init(modelContainer: Cairn.ModelContainer)",
            ])
    }

    @Test("@ModelActor on a class or struct is an error that says to use an actor", arguments: [
        ("class", "a class"), ("struct", "a struct"), ("enum", "an enum"),
    ])
    func notAnActor(keyword: String, kind: String) {
        let result = MacroExpansion.expand("@ModelActor \(keyword) Store {}")
        #expect(result.diagnostics == [
            "1:1: @ModelActor can only be applied to an actor, not to \(kind); write 'actor' instead"
        ])
        #expect(!result.expanded.contains("modelExecutor"))
    }
}
