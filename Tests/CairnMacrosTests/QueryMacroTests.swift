import Testing

@Suite("@Query macro expansion")
struct QueryMacroTests {
    @Test("@Query stores the query in _name and reads the property through it")
    func plainClass() {
        assertMacroExpansion(
            """
            @MainActor final class History {
                @Query(sort: \\Workout.startedAt, order: .reverse) var workouts: [Workout]
            }
            """,
            expandedSource: """
            @MainActor final class History {
                var workouts: [Workout] {
                    get {
                        _workouts.wrappedValue
                    }
                }

                @ObservationIgnored private var _workouts: Cairn.Query<Workout, [Workout]> = Cairn.Query<Workout, [Workout]>(sort: \\Workout.startedAt, order: .reverse)
            }
            """)
    }

    @Test("in an @Observable class, @Query(…) @ObservationIgnored expands without a diagnostic")
    func observableClass() {
        assertMacroExpansion(
            """
            @MainActor @Observable final class Feed {
                @Query(sort: \\Workout.startedAt) @ObservationIgnored var workouts: [Workout]
            }
            """,
            expandedSource: """
            @MainActor @Observable final class Feed {
                @ObservationIgnored var workouts: [Workout] {
                    get {
                        _workouts.wrappedValue
                    }
                }

                @ObservationIgnored private var _workouts: Cairn.Query<Workout, [Workout]> = Cairn.Query<Workout, [Workout]>(sort: \\Workout.startedAt)
            }
            """)
    }

    @Test("in an @Observable class, @Query without @ObservationIgnored says what to write")
    func observableClassWithoutIgnored() {
        let result = MacroExpansion.expand(
            """
            @Observable final class Feed {
                @Query var workouts: [Workout]
            }
            """)
        #expect(result.diagnostics.map(withoutLocation) == [
            "in an @Observable class, write '@Query(…) @ObservationIgnored var workouts': without "
                + "@ObservationIgnored, @Observable also turns 'workouts' into tracked storage; reading it stays "
                + "tracked through the query",
        ])
    }

    @Test("@ObservationIgnored written before @Query is reported with the order that compiles")
    func ignoredFirst() {
        let result = MacroExpansion.expand(
            """
            @Observable final class Feed {
                @ObservationIgnored @Query var workouts: [Workout]
            }
            """)
        #expect(result.diagnostics.map(withoutLocation) == [
            "write @ObservationIgnored after @Query, as in '@Query(…) @ObservationIgnored var workouts': "
                + "Swift rejects an accessor macro written after @ObservationIgnored ('produced an unexpected getter')",
        ])
    }

    @Test("a sectioned query takes its model from SectionedResults<Model, String>")
    func sectioned() {
        assertMacroExpansion(
            """
            @MainActor final class Board {
                @Query(sort: \\Workout.startedAt, sectionBy: \\Workout.title) var byTitle: SectionedResults<Workout, String>
            }
            """,
            expandedSource: """
            @MainActor final class Board {
                var byTitle: SectionedResults<Workout, String> {
                    get {
                        _byTitle.wrappedValue
                    }
                }

                @ObservationIgnored private var _byTitle: Cairn.Query<Workout, SectionedResults<Workout, String>> = Cairn.Query<Workout, SectionedResults<Workout, String>>(sort: \\Workout.startedAt, sectionBy: \\Workout.title)
            }
            """)
    }
}

/// A diagnostic's message without its `line:column: ` prefix (the harness hands macros detached
/// nodes, so positions are relative to the declaration, not the file).
private func withoutLocation(_ diagnostic: String) -> String {
    diagnostic.split(separator: " ", maxSplits: 1).last.map(String.init) ?? diagnostic
}
