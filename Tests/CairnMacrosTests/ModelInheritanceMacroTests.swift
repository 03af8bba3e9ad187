@testable import CairnMacros
import Testing

@Suite("@Model on a subclass of a model")
struct ModelInheritanceMacroTests {
    static let subclass = """
        @Model class Tutorial: Article {
            var difficulty: Int
            init(title: String, difficulty: Int) {
                self.difficulty = difficulty
                super.init(title: title)
            }
        }
        """

    @Test("a subclass overrides the metadata, the superentity and the storage, and writes the required init")
    func subclassMembers() {
        // The compiler asks a subclass for no conformance: it has its superclass's.
        let result = MacroExpansion.expand(Self.subclass, conformances: ["Model": ["Table"]])
        #expect(result.diagnostics.isEmpty)
        let expanded = result.expanded.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        for snippet in [
            "public nonisolated override class var schemaMetadata: [Cairn.Schema.PropertyMetadata] {\n"
                + "        func metadata<_Model: Tutorial>(_: _Model.Type) -> [Cairn.Schema.PropertyMetadata] {",
            #"Cairn.Schema.PropertyMetadata(name: "difficulty", keypath: \_Model.difficulty),"#,
            "return super.schemaMetadata + metadata(Self.self)",
            "public nonisolated override class var _$superentityType: (any Cairn.PersistentModel.Type)? { Article.self }",
            "public nonisolated override var _$storage: Cairn._FetchedStorage? {\n"
                + "        _$backingData.mergeSubclassValues(into: super._$storage)\n    }",
            "public nonisolated required init(backingData: any Cairn.BackingData<_$PersistentRoot>) {\n"
                + "        _difficulty = _SwiftDataNoType()\n        _$backingData = Cairn._ModelBackingDataSlot()\n"
                + "        super.init(backingData: backingData)\n    }",
            #"return self.getValue(forKey: \.difficulty)"#,
            #"_$backingData.resolve().setValue(forKey: \.difficulty, to: initialValue)"#,
        ] {
            #expect(expanded.contains(snippet.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")), "\(snippet)")
        }
        for absent in ["persistentBackingData", "typealias _$PersistentRoot", "extension Tutorial"] {
            #expect(!result.expanded.contains(absent), "\(absent)")
        }
    }

    @Test("a non-final root writes what its subclasses override")
    func nonFinalRoot() {
        assertExpansionContains("@Model class Article {\n    var title: String = \"\"\n}", [
            "public nonisolated class var schemaMetadata: [Cairn.Schema.PropertyMetadata] {",
            "public nonisolated class var _$superentityType: (any Cairn.PersistentModel.Type)? { nil }",
            "public typealias _$PersistentRoot = Article",
            "_$backingData.conform(to: self)",
        ])
    }

    @Test("a class whose first inherited type is not a model is told to list PersistentModel first")
    func protocolReadAsSuperclass() {
        // The test expansion, like the compiler for a class that is no model yet, asks for
        // the PersistentModel conformance.
        let result = MacroExpansion.expand("@Model class Note: Pinnable {\n    var text: String = \"\"\n}")
        #expect(result.diagnostics.contains { $0.contains("list PersistentModel first ('PersistentModel, Pinnable')") })
        #expect(MacroExpansion.expand("@Model class Note: PersistentModel, Pinnable {\n    var text: String = \"\"\n}")
            .diagnostics.isEmpty)
    }
}
