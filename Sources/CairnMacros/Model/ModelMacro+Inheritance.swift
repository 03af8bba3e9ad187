import SwiftSyntax
import SwiftSyntaxMacros

/// `@Model` on a class that inherits from another model (`@Model class Tutorial: Article`), and
/// what a non-final model writes so that subclasses can extend it.
///
/// A subclass inherits the conformances. It overrides what depends on its class:
/// `schemaMetadata` (its superclass's, then its own), `_$superentityType` and `_$storage`
/// (which moves the values its initializer set into the model's one storage, see
/// `_ModelBackingDataSlot.conform(to:)`), and writes the `required init(backingData:)` every
/// subclass needs. Its properties are read and written by key path.
extension ModelMacro {
    /// Protocols a model class commonly lists, that are not a superclass.
    static let knownProtocols: Set<String> = [
        "PersistentModel", "Observable", "Hashable", "Equatable", "Identifiable", "Codable", "Decodable", "Encodable",
        "Sendable", "SendableMetatype", "CustomStringConvertible", "CustomDebugStringConvertible", "Comparable", "AnyObject",
    ]

    /// Whether the first type the class inherits from may be a class (see ``superclassName(_:)``).
    static func mayInheritFromAClass(_ classDecl: ClassDeclSyntax) -> Bool {
        guard let first = classDecl.inheritanceClause?.inheritedTypes.first?.type else { return false }
        let name = first.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
        return !knownProtocols.contains(name)
    }

    /// The superclass's name when the class inherits from another model, read from the
    /// syntax: the first type it inherits from, unless that is a protocol Cairn knows. (The
    /// compiler's list of conformances to add would tell, but a member macro that asks for it
    /// on a subclass of a class with the same macro crashes Swift 6.3's type checker,
    /// swiftlang/swift#89151.) A model that adopts a protocol of its own writes
    /// `PersistentModel` first: `@Model class Note: PersistentModel, Pinnable`.
    static func superclassName(_ classDecl: ClassDeclSyntax) -> String? {
        guard mayInheritFromAClass(classDecl), let first = classDecl.inheritanceClause?.inheritedTypes.first?.type else {
            return nil
        }
        return first.trimmedDescription
    }

    /// The members of a subclass of a model.
    static func subclassMembers(
        _ classDecl: ClassDeclSyntax, typeName: String, superclass: String, properties: [StoredProperty],
        hasBackingInit: Bool
    ) -> [DeclSyntax] {
        var members: [DeclSyntax] = [
            // The subclass's own slot: its initializer's values wait here until `_$storage`
            // moves them into the model's storage (the superclass's slot holds that).
            "@exclusivity(unchecked) private nonisolated(unsafe) var _$backingData = Cairn._ModelBackingDataSlot<\(raw: typeName)>()",
            """
            public nonisolated override var _$storage: Cairn._FetchedStorage? {
                _$backingData.mergeSubclassValues(into: super._$storage)
            }
            """,
            inheritableSchemaMetadata(typeName: typeName, superclass: superclass, properties: properties),
            "public nonisolated override class var _$superentityType: (any Cairn.PersistentModel.Type)? { \(raw: superclass).self }",
        ]
        if !hasBackingInit {
            let placeholders = properties.map {
                "\(StoredProperty.storageName(of: $0.name, in: classDecl.memberBlock.members)) = _SwiftDataNoType()\n"
            }.joined()
            // Swift may still run a property's initial value through its init accessor here,
            // into the subclass's slot (it does in a subclass of a subclass): the slot is
            // emptied, so that `_$storage` moves nothing over the row's values.
            members.append(
                """
                public nonisolated required init(backingData: any Cairn.BackingData<_$PersistentRoot>) {
                    \(raw: placeholders)_$backingData = Cairn._ModelBackingDataSlot()
                    super.init(backingData: backingData)
                }
                """)
        }
        return members + observationMembers(typeName: typeName)
    }

    /// `schemaMetadata` of a non-final model, as a `class var` a subclass overrides. Its key
    /// paths are rooted in the class it is asked of (`\Tutorial.title` when asked of
    /// `Tutorial`): a predicate on a subclass names inherited properties that way.
    static func inheritableSchemaMetadata(typeName: String, superclass: String?, properties: [StoredProperty]) -> DeclSyntax {
        let entries = metadataEntries(root: "_Model", properties: properties)
        let list = entries.isEmpty ? "[]" : "[\n" + entries.map { "            " + $0 + ",\n" }.joined() + "        ]"
        let inherited = superclass == nil ? "" : "super.schemaMetadata + "
        return DeclSyntax(stringLiteral: """
            public nonisolated \(superclass == nil ? "" : "override ")class var schemaMetadata: [Cairn.Schema.PropertyMetadata] {
                func metadata<_Model: \(typeName)>(_: _Model.Type) -> [Cairn.Schema.PropertyMetadata] {
                    \(list)
                }
                return \(inherited)metadata(Self.self)
            }
            """)
    }
}
