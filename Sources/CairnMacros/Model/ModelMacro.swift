import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: makes a class a `PersistentModel` that is `Observable`.
///
/// - member: the backing data, `persistentBackingData`, `schemaMetadata`,
///   `init(backingData:)`, the observation registrar with `access`/`withMutation`, and the
///   `_SwiftDataNoType` marker type;
/// - memberAttribute: `@_PersistedProperty` on every persisted stored property;
/// - extension: the `Cairn.PersistentModel` and `Observation.Observable` conformances.
///
/// The manual conformance it writes is documented on `PersistentModel`.
public struct ModelMacro {}

extension ModelMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: ModelDiagnostic.notAClass(kindName(declaration))))
            return []
        }
        let typeName = classDecl.name.trimmedDescription
        var properties: [StoredProperty] = []
        for member in classDecl.memberBlock.members {
            switch MemberClassification.classify(member.decl) {
            case .persisted(let property): properties.append(property)
            case .ignored: break
            case .invalid(let message, let location): context.diagnose(Diagnostic(node: location, message: message))
            }
        }
        if isMainActorClass(classDecl) {
            for member in classDecl.memberBlock.members {
                guard case .persisted(let property) = MemberClassification.classify(member.decl),
                    let variable = member.decl.as(VariableDeclSyntax.self),
                    !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) })
                else { continue }
                context.diagnose(Diagnostic(node: variable.bindingSpecifier, message: ModelDiagnostic.isolatedProperty(property.name)))
            }
        }
        let hasBackingInit = classDecl.memberBlock.members.contains { member in
            guard let initializer = member.decl.as(InitializerDeclSyntax.self) else { return false }
            return initializer.signature.parameterClause.parameters.first?.firstName.text == "backingData"
        }
        if let superclass = superclassName(classDecl) {
            return subclassMembers(
                classDecl, typeName: typeName, superclass: superclass, properties: properties, hasBackingInit: hasBackingInit)
        }
        let isFinal = classDecl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) })

        var members: [DeclSyntax] = [
            // Empty until first used: an initial value that made backing data would run in
            // `init(backingData:)` too, for every fetched row, and be thrown away. Unchecked
            // exclusivity: a model is not Sendable, and no access to the slot overlaps another
            // (making backing data does not reach the model); the runtime check cost about 76
            // instructions per fetched row.
            //
            // The members the conformances use are `nonisolated`, so that a model class isolated
            // to a global actor (`@MainActor @Model`, or every class under Swift 6.2's default
            // main-actor isolation) still conforms for code on any actor: Cairn makes, reads
            // and saves models from the context's actor, not the model's. This is the same
            // confinement as for a class without isolation: a model is not Sendable, so the
            // context that owns it is the only one that touches the slot. An isolated
            // conformance (`extension Trip: @MainActor PersistentModel`) would instead refuse
            // every use of the model in Cairn's nonisolated generic code.
            "@exclusivity(unchecked) private nonisolated(unsafe) var _$backingData = Cairn._ModelBackingDataSlot<\(raw: typeName)>()",
            """
            public nonisolated var persistentBackingData: any Cairn.BackingData<\(raw: typeName)> {
                get {\(raw: isFinal ? "" : "\n        _ = _$storage")
                    if let existing = _$backingData.existing {
                        return existing
                    }
                    return _$backingData.resolve()
                }
                set {
                    _$backingData = Cairn._ModelBackingDataSlot(newValue)
                }
            }
            """,
            // Cairn's storage behind the model when the slot holds it: the context reaches it
            // through this witness, compiled for the class, without the generic type check
            // `persistentBackingData` needs (about 550 instructions, four times a saved row).
            isFinal
                ? """
                public nonisolated var _$storage: Cairn._FetchedStorage? {
                    _$backingData.existingStorage
                }
                """
                // A model of a subclass gets a storage of its own entity here (see
                // `_ModelBackingDataSlot.conform(to:)`); subclasses override this.
                : """
                public nonisolated var _$storage: Cairn._FetchedStorage? {
                    _$backingData.conform(to: self)
                    return _$backingData.existingStorage
                }
                """,
            isFinal
                ? schemaMetadata(typeName: typeName, properties: properties)
                : inheritableSchemaMetadata(typeName: typeName, superclass: nil, properties: properties),
        ]
        if !isFinal {
            members += [
                "public nonisolated class var _$superentityType: (any Cairn.PersistentModel.Type)? { nil }",
                // The type subclasses' `init(backingData:)` takes, whatever their depth.
                "public typealias _$PersistentRoot = \(raw: typeName)",
            ]
        }
        // `init(backingData:)` and `init(_$fetched:)` initialize each property's zero-size peer.
        let placeholders = properties.map {
            "\(StoredProperty.storageName(of: $0.name, in: classDecl.memberBlock.members)) = _SwiftDataNoType()"
        }.joined(separator: "\n")
        if !hasBackingInit {
            members.append(
                """
                public nonisolated required init(backingData: any Cairn.BackingData<\(raw: typeName)>) {
                    \(raw: placeholders)
                    _$backingData = Cairn._ModelBackingDataSlot(backingData)
                }
                """)
        }
        // Compiled for the concrete class, a fetched row becomes a model without the runtime
        // type lookups the generic default needs; a non-final class keeps the default, which
        // makes the dynamic `Self`. Without a hand-written `init(backingData:)`, the model is
        // made around the row's storage alone (see `_ModelBackingDataSlot.init(fetched:)`).
        if isFinal {
            if hasBackingInit {
                members.append(
                    """
                    public nonisolated static func _$makeFetched(_ storage: consuming Cairn._FetchedStorage) -> \(raw: typeName) {
                        storage.model { \(raw: typeName)(backingData: $0) }
                    }
                    """)
            } else {
                members.append(
                    """
                    private nonisolated init(_$fetched storage: Cairn._FetchedStorage) {
                        \(raw: placeholders)
                        _$backingData = Cairn._ModelBackingDataSlot(fetched: storage)
                    }
                    """)
                members.append(
                    """
                    public nonisolated static func _$makeFetched(_ storage: consuming Cairn._FetchedStorage) -> \(raw: typeName) {
                        \(raw: typeName)(_$fetched: storage)
                    }
                    """)
            }
        }
        return members + observationMembers(typeName: typeName)
    }

    /// The observation registrar and the `access`/`withMutation` the accessors call, and the
    /// zero-size type of the properties' stored peers: in every model class, a subclass too
    /// (its key paths are rooted in it).
    static func observationMembers(typeName: String) -> [DeclSyntax] {
        [
            // Made on the model's first read (`Cairn._ModelObservationRegistrar`): a fetched
            // model dropped unread never pays for one. `nonisolated(unsafe)`: `access` and `withMutation` are
            // nonisolated, as Observation's are, and a model is confined to one context.
            "@exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = Cairn._ModelObservationRegistrar()",
            // The key path is an autoclosure: a model without a registrar, read or written
            // outside tracking, never needs it, and the cached key path is a lazy static (a
            // `swift_once` call on every read, callgrind W6).
            """
            internal nonisolated func access<_M>(keyPath: @autoclosure () -> KeyPath<\(raw: typeName), _M>) {
                _$observationRegistrar.access(self, keyPath: keyPath())
            }
            """,
            """
            internal nonisolated func withMutation<_M, _MR>(keyPath: @autoclosure () -> KeyPath<\(raw: typeName), _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                try _$observationRegistrar.withMutation(of: self, keyPath: keyPath(), mutation)
            }
            """,
            "struct _SwiftDataNoType {}",
        ]
    }

    /// `public static var schemaMetadata: [Cairn.Schema.PropertyMetadata] { [ … ] }`.
    static func schemaMetadata(typeName: String, properties: [StoredProperty]) -> DeclSyntax {
        let entries = metadataEntries(root: typeName, properties: properties)
        let body = entries.isEmpty ? "    []" : "    [\n" + entries.map { "        " + $0 + ",\n" }.joined() + "    ]"
        return DeclSyntax(stringLiteral: """
            public nonisolated static var schemaMetadata: [Cairn.Schema.PropertyMetadata] {
            \(body)
            }
            """)
    }

    /// `Cairn.Schema.PropertyMetadata(name: "title", keypath: \Workout.title, …)` for each
    /// property, its key path rooted in `root`.
    static func metadataEntries(root: String, properties: [StoredProperty]) -> [String] {
        properties.map { property -> String in
            var arguments = "name: \(TableMacro.stringLiteral(property.name)), keypath: \\\(root).\(property.name)"
            if let initializer = property.initializer {
                arguments += ", defaultValue: (\(initializer.trimmedDescription)) as \(property.typeAsArgument)"
            }
            if let options = property.relationshipArguments {
                arguments += ", metadata: Cairn.Schema.Relationship(\(options.trimmedDescription))"
            } else if let options = property.attributeArguments {
                arguments += ", metadata: Cairn.Schema.Attribute(\(options.trimmedDescription))"
            }
            return "Cairn.Schema.PropertyMetadata(\(arguments))"
        }
    }

    /// Whether the class is written `@MainActor` (or `@_Concurrency.MainActor`).
    static func isMainActorClass(_ classDecl: ClassDeclSyntax) -> Bool {
        classDecl.attributes.contains { element in
            guard let name = element.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
            return name == "MainActor" || name == "_Concurrency.MainActor"
        }
    }

    static func kindName(_ declaration: some DeclGroupSyntax) -> String {
        if declaration.is(StructDeclSyntax.self) { return "a struct" }
        if declaration.is(EnumDeclSyntax.self) { return "an enum" }
        if declaration.is(ActorDeclSyntax.self) { return "an actor" }
        if declaration.is(ProtocolDeclSyntax.self) { return "a protocol" }
        if declaration.is(ExtensionDeclSyntax.self) { return "an extension" }
        return "this declaration"
    }
}

extension ModelMacro: MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self) else { return [] }
        guard case .persisted(let property) = MemberClassification.classify(member) else { return [] }
        // A subclass's properties come after its superclass's, how many the syntax does not
        // tell: they are read and written by key path.
        if let classDecl = declaration.as(ClassDeclSyntax.self), superclassName(classDecl) != nil {
            let storage = StoredProperty.storageName(of: property.name, in: declaration.memberBlock.members)
            return storage != "_" + property.name ? ["@_PersistedProperty(storage: \(literal: storage))"] : ["@_PersistedProperty"]
        }
        // The property's slot: its place among the persisted properties, the order of
        // `schemaMetadata` (and so of the entity's slots). Found by name, which is unique in
        // the class: the member handed in need not be the node inside `declaration`.
        var slot = 0
        for other in declaration.memberBlock.members {
            guard case .persisted(let persisted) = MemberClassification.classify(other.decl) else { continue }
            guard persisted.name == property.name else {
                slot += 1
                continue
            }
            let storage = StoredProperty.storageName(of: property.name, in: declaration.memberBlock.members)
            if storage != "_" + property.name {
                return ["@_PersistedProperty(slot: \(raw: slot), storage: \(literal: storage))"]
            }
            return ["@_PersistedProperty(slot: \(raw: slot))"]
        }
        return ["@_PersistedProperty"]
    }
}

extension ModelMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else { return [] }
        let requested = Set(protocols.map { $0.trimmedDescription })
        func wants(_ short: String, _ full: String) -> Bool {
            requested.isEmpty || requested.contains(short) || requested.contains(full)
        }
        var extensions: [ExtensionDeclSyntax] = []
        // `Hashable` is implied by `PersistentModel` and also stated on its own. When another
        // model's macro argument names this one (`@Relationship(inverse: \Car.garage) var
        // cars: Set<Car>` above `Car`), the compiler checks `Car: Hashable` before expanding
        // this macro, from the `conformances:` list, and a protocol listed there does not
        // stand for the protocols it refines.
        //
        // The conformances are `nonisolated`: under Swift 6.2's default main-actor isolation,
        // Swift would infer them isolated to the main actor, and Cairn, which uses them from
        // the context's actor in nonisolated generic code, could not use them at all.
        // A subclass inherits the conformances; its columns are not typed SQL's either.
        let isSubclass = superclassName(classDecl) != nil
        if isSubclass, requested.contains("PersistentModel") || requested.contains("Cairn.PersistentModel") {
            // The compiler says the class is no model yet: what it inherits from first is not
            // a model class. The members were written for a subclass and will not compile.
            context.diagnose(Diagnostic(
                node: node,
                message: ModelDiagnostic.notASubclass(classDecl.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription ?? "")))
        }
        for (short, full) in [
            ("PersistentModel", "Cairn.PersistentModel"), ("Observable", "Observation.Observable"),
            ("Hashable", "Swift.Hashable"), ("_ModelMetatype", "Cairn._ModelMetatype"),
        ]
        where !isSubclass && wants(short, full) {
            extensions.append(try ExtensionDeclSyntax("extension \(type.trimmed): nonisolated \(raw: full) {}"))
        }
        // Typed SQL's `Table` needs `TableColumns.QueryValue` to be exactly `Self`, which only a
        // final class can promise; a non-final model (Apple's samples declare
        // `@Model public class Bird`) is a SwiftData model without typed-SQL columns.
        let isFinal = classDecl.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        if isFinal, !isSubclass, wants("Table", "Cairn.Table") {
            let source = tableExtension(classDecl, type: type.trimmedDescription)
            extensions.append(try ExtensionDeclSyntax(SyntaxNodeString(stringLiteral: source)))
        }
        return extensions
    }

    /// The typed-SQL `Cairn.Table` conformance: one column per stored attribute (relationships
    /// declared with `@Relationship`, `@Transient`, `.ephemeral` and private properties excepted), the
    /// integer primary key (`$0.count()` counts rows), the column list and table name read from the schema at run time, and a `decode(from:)` that
    /// throws (typed SQL selects a model's values and aggregates, not whole models).
    static func tableExtension(_ classDecl: ClassDeclSyntax, type: String) -> String {
        let modifiers = classDecl.modifiers.map(\.name.text)
        let access = modifiers.contains("public") || modifiers.contains("open") ? "public " : ""
        var columnLines: [String] = []
        for member in classDecl.memberBlock.members {
            guard case .persisted(let property) = MemberClassification.classify(member.decl),
                  property.relationshipArguments == nil,
                  !(property.attributeArguments?.contains { $0.label == nil && $0.expression.trimmedDescription == ".ephemeral" } ?? false),
                  let variable = member.decl.as(VariableDeclSyntax.self)
            else { continue }
            // A column is as visible as its property (so a public model's internal property,
            // whose type may be internal, keeps compiling); private properties get none.
            let propertyModifiers = variable.modifiers.filter { $0.detail == nil }.map(\.name.text)
            if propertyModifiers.contains("private") || propertyModifiers.contains("fileprivate") { continue }
            let isPublic = propertyModifiers.contains("public") || propertyModifiers.contains("open")
            let written = property.typeAsArgument
            let column = TableProperty(
                name: property.name, columnName: property.name, type: written, storedType: modelStoredType(written),
                initializer: nil, isPrimaryKeyAttribute: false, isLet: false)
            columnLines += TableMacro.columnDeclarations(access: isPublic ? access : "", type: type, columns: [column], groups: false)
        }
        var lines = ["extension \(type): nonisolated Cairn.Table {"]
        lines.append("    \(access)struct TableColumns: Cairn.PrimaryKeyedTableDefinition, Sendable {")
        lines.append("        \(access)typealias QueryValue = \(type)")
        lines.append(contentsOf: columnLines)
        lines.append("        \(access)var primaryKey: Cairn.TableColumn<\(type), Int> {")
        lines.append("            Cairn._ModelTable.primaryKey(\(type).self)")
        lines.append("        }")
        lines.append("        \(access)var allColumns: [any Cairn.TableColumnExpression] {")
        lines.append("            Cairn._ModelTable.allColumns(\(type).self)")
        lines.append("        }")
        lines.append("    }")
        lines.append("    \(access)nonisolated static let columns = TableColumns()")
        lines.append("    \(access)nonisolated static var tableName: String {")
        lines.append("        Cairn._ModelTable.tableName(\(type).self)")
        lines.append("    }")
        lines.append("    \(access)nonisolated static var columnWidth: Int {")
        lines.append("        columns.allColumns.count")
        lines.append("    }")
        lines.append("    \(access)nonisolated static func decode(from decoder: inout Cairn.QueryDecoder) throws -> \(type) {")
        lines.append("        throw Cairn._ModelTable.rowDecodingUnsupported(\(type).self)")
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The typed-SQL value type of a model attribute's column: a model store keeps a `Date` as
    /// REAL seconds since 2001 (as Core Data does), where a typed-SQL `Date` binds text, so a
    /// `Date` attribute's column compares, binds and reads through the representation of that
    /// storage. Any other type is the attribute's own.
    static func modelStoredType(_ written: String) -> String {
        let representation = "Date.TimeIntervalSinceReferenceDateRepresentation"
        switch written.filter({ !$0.isWhitespace }) {
        case "Date", "Foundation.Date": return representation
        case "Date?", "Foundation.Date?", "Optional<Date>", "Optional<Foundation.Date>": return representation + "?"
        default: return written
        }
    }
}
