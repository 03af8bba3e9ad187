import Testing

@Suite("@Model on a @MainActor class")
struct MainActorModelMacroTests {
    static let trip = """
        @MainActor @Model
        final class Trip {
            nonisolated var name: String
            @Transient var isExpanded = false

            init(name: String) { self.name = name }
        }
        """

    @Test("the conformances' members are nonisolated, and the accessors use the key path literal")
    func nonisolatedMembers() {
        assertExpansionContains(Self.trip, [
            """
            nonisolated var name: String {
                @storageRestrictions(accesses: _$backingData, initializes: _name)
                init(initialValue) {
                    _$backingData.setValue(forKey: \\.name, to: initialValue, slot: 0)
                    _name = _SwiftDataNoType()
                }
                get {
                    access(keyPath: \\.name)
                    return _$backingData.value(of: self, forKey: \\.name, slot: 0)
                }
            """,
            "private nonisolated(unsafe) var _name: _SwiftDataNoType",
            "@exclusivity(unchecked) private nonisolated(unsafe) var _$backingData = Cairn._ModelBackingDataSlot<Trip>()",
            "public nonisolated var persistentBackingData: any Cairn.BackingData<Trip> {",
            "public nonisolated var _$storage: Cairn._FetchedStorage? {",
            "public nonisolated static var schemaMetadata: [Cairn.Schema.PropertyMetadata] {",
            "public nonisolated required init(backingData: any Cairn.BackingData<Trip>) {",
            "private nonisolated init(_$fetched storage: Cairn._FetchedStorage) {",
            "public nonisolated static func _$makeFetched(_ storage: consuming Cairn._FetchedStorage) -> Trip {",
            "extension Trip: nonisolated Cairn.PersistentModel {",
            "nonisolated static let columns = TableColumns()",
            "nonisolated static var tableName: String {",
            "nonisolated static var columnWidth: Int {",
            "nonisolated static func decode(from decoder: inout Cairn.QueryDecoder) throws -> Trip {",
        ])
        // A static key path to a main-actor property could be made off the main actor.
        assertExpansionLacks(Self.trip, ["_$keyPath_name"])
    }

    @Test("a persisted property of a @MainActor model without nonisolated is an error that says what to write")
    func isolatedPropertyIsAnError() {
        let result = MacroExpansion.expand("""
            @MainActor @Model final class Trip {
                var name: String
                nonisolated var days: Int
                @Transient var isExpanded = false
            }
            """)
        #expect(result.diagnostics == [
            "2:5: @Model property 'name' of a @MainActor class must be 'nonisolated' ('nonisolated var name'): "
                + "the model's context reads and writes it, and #Predicate, SortDescriptor and the schema need "
                + "its key path, which Swift forms only for a nonisolated property; or mark it @Transient",
        ])
    }
}
