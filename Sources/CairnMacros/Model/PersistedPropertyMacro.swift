import SwiftSyntax
import SwiftSyntaxMacros

/// `@_PersistedProperty`, which `@Model` puts on each persisted stored property: accessors
/// that read and write through the model's backing data and tell the observation registrar,
/// and a zero-size `_name` peer the init accessor initializes (so `init(backingData:)` can
/// skip the property).
public struct _PersistedPropertyMacro {}

extension _PersistedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard case .persisted(let property) = MemberClassification.classify(declaration) else { return [] }
        let name = property.name
        // Swift initializes every Optional property to nil through its init accessor, in every
        // initializer: also in `init(backingData:)`, where the backing data it reaches is a
        // throwaway. A new model's storage starts those properties at nil anyway
        // (`Schema.Entity.implicitNils`), so a nil is not passed on.
        let set: String = slot(node).map { "_$backingData.setValue(forKey: \\.\(name), to: initialValue, slot: \($0))" }
            ?? "_$backingData.resolve().setValue(forKey: \\.\(name), to: initialValue)"
        let initialize: CodeBlockItemSyntax = property.isOptional
            ? "if initialValue != nil { \(raw: set) }"
            : "\(raw: set)"
        // A fetched row's loaded value is read by slot (see `_ModelBackingDataSlot.value(of:…)`);
        // without a slot (the attribute written by hand) through the key path.
        let read: StmtSyntax = slot(node).map {
            "return _$backingData.value(of: self, forKey: \\.\(raw: name), slot: \(raw: $0))"
        } ?? "return self.getValue(forKey: \\.\(raw: name))"
        let write: String = slot(node).map { "_$backingData.setValue(of: self, forKey: \\.\(name), to: newValue, slot: \($0))" }
            ?? "self.setValue(forKey: \\.\(name), to: newValue)"
        let observed = observedKeyPath(property, in: context)
        let storage = storageName(node, property)
        return [
            """
            @storageRestrictions(accesses: _$backingData, initializes: \(raw: storage))
            init(initialValue) {
                \(initialize)
                \(raw: storage) = _SwiftDataNoType()
            }
            """,
            """
            get {
                access(keyPath: \(raw: observed))
                \(read)
            }
            """,
            """
            set {
                withMutation(keyPath: \(raw: observed)) {
                    \(raw: write)
                }
            }
            """,
        ]
    }

    /// The key path the accessors hand to the observation registrar: the class's cached one
    /// (`Workout._$keyPath_title`, see the peer) when there is one, or the literal. A key path
    /// literal is a runtime call on every evaluation, once per property read or write (about 80
    /// instructions with the release that follows it, callgrind W6).
    static func observedKeyPath(_ property: StoredProperty, in context: some MacroExpansionContext) -> String {
        guard let typeName = cachingClassName(for: property, in: context) else { return "\\.\(property.name)" }
        return "\(typeName)._$keyPath_\(property.name)"
    }

    /// The enclosing class's name, when it can hold the cached key path: a class that is not
    /// generic, nor nested where it would be (generic types have no static stored
    /// properties; an extension or a function may be generic, which the syntax does not
    /// tell), nor written `@MainActor`: a key path to a main-actor property may only be made
    /// on the main actor, and the `nonisolated(unsafe)` static is made on whichever thread
    /// reads it first. Such a class's accessors, on the main actor, use the literal.
    static func cachingClassName(for property: StoredProperty, in context: some MacroExpansionContext) -> String? {
        guard let classDecl = context.lexicalContext.first?.as(ClassDeclSyntax.self),
            !ModelMacro.isMainActorClass(classDecl),
            context.lexicalContext.allSatisfy(isNonGenericType)
        else { return nil }
        return classDecl.name.trimmedDescription
    }

    /// Whether a lexical context is a type declaration without generic parameters.
    private static func isNonGenericType(_ declaration: Syntax) -> Bool {
        if let type = declaration.as(ClassDeclSyntax.self) { return type.genericParameterClause == nil }
        if let type = declaration.as(StructDeclSyntax.self) { return type.genericParameterClause == nil }
        if let type = declaration.as(EnumDeclSyntax.self) { return type.genericParameterClause == nil }
        if let type = declaration.as(ActorDeclSyntax.self) { return type.genericParameterClause == nil }
        return false
    }
}

extension _PersistedPropertyMacro {
    /// The stored peer's name: the `storage:` argument `@Model` writes when the class declares
    /// `_name` itself (see ``StoredProperty/storageName(of:in:)``), else `_name`.
    static func storageName(_ node: AttributeSyntax, _ property: StoredProperty) -> String {
        let arguments = node.arguments?.as(LabeledExprListSyntax.self) ?? []
        for argument in arguments where argument.label?.text == "storage" {
            if let literal = argument.expression.as(StringLiteralExprSyntax.self), let text = literal.representedLiteralValue {
                return text
            }
        }
        return "_" + property.name
    }

    /// The `slot:` argument, when given and not negative.
    static func slot(_ node: AttributeSyntax) -> Int? {
        guard let arguments = node.arguments?.as(LabeledExprListSyntax.self) else { return nil }
        for argument in arguments where argument.label?.text == "slot" {
            if let literal = argument.expression.as(IntegerLiteralExprSyntax.self), let value = Int(literal.literal.text),
                value >= 0
            {
                return value
            }
        }
        return nil
    }
}

extension _PersistedPropertyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard case .persisted(let property) = MemberClassification.classify(declaration) else { return [] }
        // `nonisolated(unsafe)`: the init accessor of a `nonisolated` property of a main-actor
        // class initializes it; it is zero-size and never read.
        var peers: [DeclSyntax] = ["private nonisolated(unsafe) var \(raw: storageName(node, property)): _SwiftDataNoType"]
        if let typeName = cachingClassName(for: property, in: context) {
            // `nonisolated(unsafe)`: a key path is immutable once made, and the runtime itself
            // hands the one instance of a literal key path to every thread that evaluates it.
            // (Spelled as `KeyPath`, which is not `Sendable`, so that Swift 5 and Swift 6 modes
            // both take the declaration without a warning.)
            peers.append("""
                nonisolated(unsafe) private static let _$keyPath_\(raw: property.name): KeyPath<\(raw: typeName), \(raw: property.typeAsArgument)> = \\\(raw: typeName).\(raw: property.name)
                """)
        }
        return peers
    }
}
