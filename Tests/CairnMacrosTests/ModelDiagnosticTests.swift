import Testing

@Suite("@Model diagnostics")
struct ModelDiagnosticTests {
    /// Property declarations that cannot be stored, with the diagnostic each one gets.
    static let cases: [(declaration: String, diagnostic: String)] = [
        ("var handler: () -> Void", "2:18: @Model cannot store property 'handler' of type '() -> Void': a function cannot be stored; mark it @Transient or use a Codable type"),
        ("var callback: (@Sendable (Int) -> Void)?", "2:19: @Model cannot store property 'callback' of type '(@Sendable (Int) -> Void)?': a function cannot be stored; mark it @Transient or use a Codable type"),
        ("var point: (x: Int, y: Int)", "2:16: @Model cannot store property 'point' of type '(x: Int, y: Int)': a tuple cannot be stored; mark it @Transient or use a Codable type"),
        ("var payload: Any", "2:18: @Model cannot store property 'payload' of type 'Any': 'Any' cannot be stored; mark it @Transient or use a Codable type"),
        ("var delegate: AnyObject?", "2:19: @Model cannot store property 'delegate' of type 'AnyObject?': 'AnyObject' cannot be stored; mark it @Transient or use a Codable type"),
        ("var shapes: [any Shape]", "2:17: @Model cannot store property 'shapes' of type '[any Shape]': an existential ('any' or 'some') cannot be stored; mark it @Transient or use a Codable type"),
        ("var kind: Int.Type", "2:15: @Model cannot store property 'kind' of type 'Int.Type': a metatype cannot be stored; mark it @Transient or use a Codable type"),
        ("var lookup: [String: () -> Int]", "2:17: @Model cannot store property 'lookup' of type '[String: () -> Int]': a function cannot be stored; mark it @Transient or use a Codable type"),
        ("var count = 0", "2:9: @Model property 'count' needs an explicit type (for example 'var count: Int = 0'); or mark it @Transient"),
        ("let created: Date", "2:5: @Model stores 'var' properties; declare 'created' with 'var', or mark it @Transient with a default value"),
        ("var name: String = \"\" { didSet { print(name) } }", "2:9: @Model property 'name' cannot have willSet/didSet observers; observe it with withObservationTracking, or mark it @Transient"),
        ("var a: Int = 0, b: Int = 0", "2:5: @Model needs one stored property per 'var' declaration"),
    ]

    @Test("a property that cannot be stored is an error that names it", arguments: cases)
    func unsupportedProperty(declaration: String, diagnostic: String) {
        let source = "@Model final class Thing {\n    \(declaration)\n    var ok: Int = 0\n}"
        let result = MacroExpansion.expand(source)
        #expect(result.diagnostics == [diagnostic])
        // The rest of the model still expands, so the user sees only the one error.
        #expect(result.expanded.contains("Cairn.Schema.PropertyMetadata(name: \"ok\""))
        #expect(!result.expanded.contains("_$backingData.setValue(forKey: \\.\(declaration.split(separator: " ")[1].split(separator: ":")[0])"))
    }

    @Test("a Codable, optional, array or model type is left to the type checker")
    func storableTypesAreAccepted() {
        let result = MacroExpansion.expand("""
            @Model final class Thing {
                var tags: [String] = []
                var scores: [String: Double] = [:]
                var owner: Person?
                var items: [Item] = []
                var location: Location? = nil
                var id: UUID = UUID()
                var wrapped: (Int) = 0
            }
            """)
        #expect(result.diagnostics.isEmpty)
        for name in ["tags", "scores", "owner", "items", "location", "id", "wrapped"] {
            #expect(result.expanded.contains("Cairn.Schema.PropertyMetadata(name: \"\(name)\""))
        }
    }

    @Test("@Model on something other than a class is an error", arguments: [
        ("struct", "a struct"), ("enum", "an enum"), ("actor", "an actor"),
    ])
    func notAClass(keyword: String, kind: String) {
        let result = MacroExpansion.expand("@Model \(keyword) Thing {\n}")
        #expect(result.diagnostics == ["1:1: @Model can only be applied to a class, not to \(kind)"])
        #expect(!result.expanded.contains("PersistentModel"))
    }
}
