import Testing

@Suite("@Model expansion")
struct ModelMacroTests {
    @Test("the seed's Workout expands to accessors, metadata, backing data and conformances")
    func seedWorkout() {
        assertMacroExpansion(
            """
            @Model
            final class Workout {
                var title: String
                var finishedAt: Date?
                var isFavorite: Bool = false

                init(title: String) {
                    self.title = title
                }
            }
            """,
            expandedSource: #"""
            final class Workout {
                var title: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _title)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.title, to: initialValue, slot: 0)
                        _title = _SwiftDataNoType()
                    }
                    get {
                        access(keyPath: Workout._$keyPath_title)
                        return _$backingData.value(of: self, forKey: \.title, slot: 0)
                    }
                    set {
                        withMutation(keyPath: Workout._$keyPath_title) {
                            _$backingData.setValue(of: self, forKey: \.title, to: newValue, slot: 0)
                        }
                    }
                }

                private nonisolated(unsafe) var _title: _SwiftDataNoType

                nonisolated(unsafe) private static let _$keyPath_title: KeyPath<Workout, String> = \Workout.title
                var finishedAt: Date? {
                    @storageRestrictions(accesses: _$backingData, initializes: _finishedAt)
                    init(initialValue) {
                        if initialValue != nil {
                            _$backingData.setValue(forKey: \.finishedAt, to: initialValue, slot: 1)
                        }
                        _finishedAt = _SwiftDataNoType()
                    }
                    get {
                        access(keyPath: Workout._$keyPath_finishedAt)
                        return _$backingData.value(of: self, forKey: \.finishedAt, slot: 1)
                    }
                    set {
                        withMutation(keyPath: Workout._$keyPath_finishedAt) {
                            _$backingData.setValue(of: self, forKey: \.finishedAt, to: newValue, slot: 1)
                        }
                    }
                }

                private nonisolated(unsafe) var _finishedAt: _SwiftDataNoType

                nonisolated(unsafe) private static let _$keyPath_finishedAt: KeyPath<Workout, Date?> = \Workout.finishedAt
                var isFavorite: Bool {
                    @storageRestrictions(accesses: _$backingData, initializes: _isFavorite)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.isFavorite, to: initialValue, slot: 2)
                        _isFavorite = _SwiftDataNoType()
                    }
                    get {
                        access(keyPath: Workout._$keyPath_isFavorite)
                        return _$backingData.value(of: self, forKey: \.isFavorite, slot: 2)
                    }
                    set {
                        withMutation(keyPath: Workout._$keyPath_isFavorite) {
                            _$backingData.setValue(of: self, forKey: \.isFavorite, to: newValue, slot: 2)
                        }
                    }
                }

                private nonisolated(unsafe) var _isFavorite: _SwiftDataNoType

                nonisolated(unsafe) private static let _$keyPath_isFavorite: KeyPath<Workout, Bool> = \Workout.isFavorite

                init(title: String) {
                    self.title = title
                }

                @exclusivity(unchecked) private nonisolated(unsafe) var _$backingData = Cairn._ModelBackingDataSlot<Workout>()

                public nonisolated var persistentBackingData: any Cairn.BackingData<Workout> {
                    get {
                        if let existing = _$backingData.existing {
                            return existing
                        }
                        return _$backingData.resolve()
                    }
                    set {
                        _$backingData = Cairn._ModelBackingDataSlot(newValue)
                    }
                }

                public nonisolated var _$storage: Cairn._FetchedStorage? {
                    _$backingData.existingStorage
                }

                public nonisolated static var schemaMetadata: [Cairn.Schema.PropertyMetadata] {
                    [
                        Cairn.Schema.PropertyMetadata(name: "title", keypath: \Workout.title),
                        Cairn.Schema.PropertyMetadata(name: "finishedAt", keypath: \Workout.finishedAt),
                        Cairn.Schema.PropertyMetadata(name: "isFavorite", keypath: \Workout.isFavorite, defaultValue: (false) as Bool),
                    ]
                }

                public nonisolated required init(backingData: any Cairn.BackingData<Workout>) {
                    _title = _SwiftDataNoType()
                    _finishedAt = _SwiftDataNoType()
                    _isFavorite = _SwiftDataNoType()
                    _$backingData = Cairn._ModelBackingDataSlot(backingData)
                }

                private nonisolated init(_$fetched storage: Cairn._FetchedStorage) {
                    _title = _SwiftDataNoType()
                    _finishedAt = _SwiftDataNoType()
                    _isFavorite = _SwiftDataNoType()
                    _$backingData = Cairn._ModelBackingDataSlot(fetched: storage)
                }

                public nonisolated static func _$makeFetched(_ storage: consuming Cairn._FetchedStorage) -> Workout {
                    Workout(_$fetched: storage)
                }

                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = Cairn._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: @autoclosure () -> KeyPath<Workout, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath())
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: @autoclosure () -> KeyPath<Workout, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath(), mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Workout: nonisolated Cairn.PersistentModel {
            }

            extension Workout: nonisolated Observation.Observable {
            }

            extension Workout: nonisolated Swift.Hashable {
            }

            extension Workout: nonisolated Cairn.Table {
                struct TableColumns: Cairn.PrimaryKeyedTableDefinition, Sendable {
                    typealias QueryValue = Workout
                    let title = Cairn.TableColumn<Workout, String>("title", table: Workout.tableName)
                    let finishedAt = Cairn.TableColumn<Workout, Date.TimeIntervalSinceReferenceDateRepresentation?>("finishedAt", table: Workout.tableName)
                    let isFavorite = Cairn.TableColumn<Workout, Bool>("isFavorite", table: Workout.tableName)
                    var primaryKey: Cairn.TableColumn<Workout, Int> {
                        Cairn._ModelTable.primaryKey(Workout.self)
                    }
                    var allColumns: [any Cairn.TableColumnExpression] {
                        Cairn._ModelTable.allColumns(Workout.self)
                    }
                }
                nonisolated static let columns = TableColumns()
                nonisolated static var tableName: String {
                    Cairn._ModelTable.tableName(Workout.self)
                }
                nonisolated static var columnWidth: Int {
                    columns.allColumns.count
                }
                nonisolated static func decode(from decoder: inout Cairn.QueryDecoder) throws -> Workout {
                    throw Cairn._ModelTable.rowDecodingUnsupported(Workout.self)
                }
            }
            """#)
    }

    @Test("a model's table columns are its attributes, as visible as each property: relationships, transient, ephemeral and private ones excepted")
    func tableColumns() {
        let source = """
            @Model public final class Trip {
                public var title: String = ""
                var kind: Kind = .leisure
                @Relationship(deleteRule: .cascade) var items: [Item] = []
                @Attribute(.ephemeral) var draft: String = ""
                @Transient var isExpanded = false
                public var budget: Decimal?
                private var secret: Secret = Secret()
            }
            """
        assertExpansionContains(source, [
            "extension Trip: nonisolated Cairn.Table {",
            "public struct TableColumns: Cairn.PrimaryKeyedTableDefinition, Sendable {",
            #"public let title = Cairn.TableColumn<Trip, String>("title", table: Trip.tableName)"#,
            #"    let kind = Cairn.TableColumn<Trip, Kind>("kind", table: Trip.tableName)"#,
            #"public let budget = Cairn.TableColumn<Trip, Decimal?>("budget", table: Trip.tableName)"#,
            "public nonisolated static func decode(from decoder: inout Cairn.QueryDecoder) throws -> Trip {",
        ])
        assertExpansionLacks(source, ["let items = Cairn.TableColumn", "let draft = Cairn.TableColumn", "let isExpanded = Cairn.TableColumn", "public let kind", "let secret = Cairn.TableColumn"])
    }

    @Test("a non-final model conforms to PersistentModel and Observable but not to typed SQL's Table")
    func nonFinalModelHasNoTable() {
        let source = """
            @Model public class Bird {
                public var speciesName: String = ""
            }
            """
        assertExpansionContains(source, ["extension Bird: nonisolated Cairn.PersistentModel {", "extension Bird: nonisolated Observation.Observable {"])
        assertExpansionLacks(source, ["extension Bird: nonisolated Cairn.Table", "_$makeFetched"])
    }

    @Test("@Attribute and @Relationship options go into the metadata verbatim")
    func attributeAndRelationshipMetadata() {
        assertExpansionContains(
            """
            @Model final class Trip {
                @Attribute(.unique, originalName: "name") var title: String
                @Relationship(deleteRule: .cascade, inverse: \\Item.trip) var items: [Item] = []
                var status: Status = .planned
                init(title: String) { self.title = title }
            }
            """,
            [
                #"Cairn.Schema.PropertyMetadata(name: "title", keypath: \Trip.title, metadata: Cairn.Schema.Attribute(.unique, originalName: "name")),"#,
                #"Cairn.Schema.PropertyMetadata(name: "items", keypath: \Trip.items, defaultValue: ([]) as [Item], metadata: Cairn.Schema.Relationship(deleteRule: .cascade, inverse: \Item.trip)),"#,
                #"Cairn.Schema.PropertyMetadata(name: "status", keypath: \Trip.status, defaultValue: (.planned) as Status),"#,
            ])
    }

    @Test("transient, static, computed and lazy properties are not persisted, nor counted in the getters' slots")
    func skippedProperties() {
        let source = """
            @Model final class Note {
                var text: String = ""
                @Transient var isExpanded = false
                static var shared: Int = 0
                var length: Int { text.count }
                lazy var cache: [String] = []
                var upper: String {
                    get { text.uppercased() }
                    set { text = newValue }
                }
                var due: Date?
            }
            """
        assertExpansionContains(source, [
            "var isExpanded = false",
            "static var shared: Int = 0",
            #"Cairn.Schema.PropertyMetadata(name: "text", keypath: \Note.text, defaultValue: ("") as String),"#,
            #"Cairn.Schema.PropertyMetadata(name: "due", keypath: \Note.due),"#,
            #"return _$backingData.value(of: self, forKey: \.text, slot: 0)"#,
            #"return _$backingData.value(of: self, forKey: \.due, slot: 1)"#,
        ])
        assertExpansionLacks(source, [
            #"name: "isExpanded""#, #"name: "shared""#, #"name: "length""#, #"name: "cache""#, #"name: "upper""#,
            "_isExpanded", "_length", "_cache",
        ])
    }

    @Test("an Optional's init accessor passes only a non-nil value on, however the Optional is spelled")
    func optionalInitAccessors() {
        let source = """
            @Model final class Note {
                var text: String = ""
                var due: Date?
                var done: Optional<Bool>
                var owner: Swift.Optional<String>
                var legacy: Int!
            }
            """
        let skipsNil = { (name: String, slot: Int) in
            "if initialValue != nil {\n            _$backingData.setValue(forKey: \\.\(name), to: initialValue, slot: \(slot))\n        }"
        }
        assertExpansionContains(source, [("due", 1), ("done", 2), ("owner", 3), ("legacy", 4)].map(skipsNil))
        assertExpansionContains(source, ["init(initialValue) {\n        _$backingData.setValue(forKey: \\.text, to: initialValue, slot: 0)"])
    }

    // The accessors hand the registrar a key path the class keeps, not a literal evaluated on
    // every read; where the class cannot keep one, the literal stays.
    @Test("the observed key path is a static of the class, or the literal where a static cannot be written")
    func cachedObservedKeyPaths() {
        let source = """
            @Model final class Note {
                var text: String = ""
                var legacy: Int!
            }
            """
        assertExpansionContains(source, [
            "nonisolated(unsafe) private static let _$keyPath_text: KeyPath<Note, String> = \\Note.text",
            "access(keyPath: Note._$keyPath_text)",
            "withMutation(keyPath: Note._$keyPath_text) {",
            // An implicitly unwrapped optional's key path has the Optional's type.
            "nonisolated(unsafe) private static let _$keyPath_legacy: KeyPath<Note, Int?> = \\Note.legacy",
            "access(keyPath: Note._$keyPath_legacy)",
        ])
        let generic = """
            @Model final class Box<T> {
                var label: String = ""
            }
            """
        assertExpansionContains(generic, ["access(keyPath: \\.label)"])
        assertExpansionLacks(generic, ["_$keyPath_label"])
        let nestedInGeneric = """
            struct Shelf<T> {
                @Model final class Book {
                    var title: String = ""
                }
            }
            """
        assertExpansionContains(nestedInGeneric, ["access(keyPath: \\.title)"])
        assertExpansionLacks(nestedInGeneric, ["_$keyPath_title"])
        let nested = """
            enum Library {
                @Model final class Book {
                    var title: String = ""
                }
            }
            """
        assertExpansionContains(nested, ["access(keyPath: Book._$keyPath_title)"])
    }

    @Test("a final model makes fetched rows around their storage alone; a non-final one keeps the generic default")
    func fetchedFactory() {
        assertExpansionContains(
            "@Model final class Tag {\n    var name: String = \"\"\n}",
            [
                "private nonisolated init(_$fetched storage: Cairn._FetchedStorage) {\n        _name = _SwiftDataNoType()\n        _$backingData = Cairn._ModelBackingDataSlot(fetched: storage)\n    }",
                "public nonisolated static func _$makeFetched(_ storage: consuming Cairn._FetchedStorage) -> Tag {\n        Tag(_$fetched: storage)\n    }",
            ])
        assertExpansionLacks("@Model class Tag {\n    var name: String = \"\"\n}", ["_$makeFetched", "_$fetched"])
    }

    @Test("a final model with its own init(backingData:) makes fetched rows through it")
    func fetchedFactoryThroughHandWrittenInit() {
        let source = """
            @Model final class Tag {
                var name: String = ""
                required init(backingData: any Cairn.BackingData<Tag>) {
                    _name = _SwiftDataNoType()
                    persistentBackingData = backingData
                }
            }
            """
        assertExpansionContains(
            source,
            ["public nonisolated static func _$makeFetched(_ storage: consuming Cairn._FetchedStorage) -> Tag {\n        storage.model { Tag(backingData: $0) }\n    }"])
        assertExpansionLacks(source, ["_$fetched"])
    }

    @Test("a model with its own init(backingData:) keeps it")
    func customBackingInit() {
        assertExpansionLacks(
            """
            @Model final class Tag {
                var name: String = ""
                required init(backingData: any Cairn.BackingData<Tag>) { self.persistentBackingData = backingData }
            }
            """, ["public required init(backingData"])
    }

    @Test("a public model gets public requirements and its conformances")
    func conformances() {
        assertExpansionContains(
            """
            @Model public final class Tag {
                public var name: String = ""
            }
            """,
            [
                "public nonisolated var persistentBackingData: any Cairn.BackingData<Tag>",
                "public nonisolated static var schemaMetadata: [Cairn.Schema.PropertyMetadata]",
                "extension Tag: nonisolated Cairn.PersistentModel {\n}",
                "extension Tag: nonisolated Observation.Observable {\n}",
                "extension Tag: nonisolated Swift.Hashable {\n}",
                "extension Tag: nonisolated Cairn.Table {",
            ])
    }

    @Test("#Unique and #Index become static key-path lists")
    func uniqueAndIndex() {
        assertMacroExpansion(
            """
            #Unique<Person>([\\.email], [\\.givenName, \\.familyName])
            #Index<Person>([\\.familyName], [\\.givenName, \\.familyName])
            #Index<Person>(.binary([\\.email]))
            """,
            expandedSource: #"""
            public static var _$uniquenessConstraints: [[AnyKeyPath]] {
                Cairn.Schema.Unique<Person>([\.email], [\.givenName, \.familyName]).keyPaths
            }
            public static var _$indices: [[AnyKeyPath]] {
                Cairn.Schema.Index<Person>([\.familyName], [\.givenName, \.familyName]).keyPaths
            }
            public static var _$indices: [[AnyKeyPath]] {
                Cairn.Schema.Index<Person>(.binary([\.email])).keyPaths
            }
            """#)
    }

    @Test("#Unique without a model type is an error")
    func uniqueWithoutType() {
        assertMacroExpansion(
            "#Unique([\\.email])", expandedSource: "",
            diagnostics: [#"1:1: #Unique needs its model type: write #Unique<Model>([\.property])"#])
    }
}
