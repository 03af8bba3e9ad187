import SwiftSyntax

/// A stored property of a `@Model` class that the model persists, as read from its declaration.
struct StoredProperty {
    let name: String
    let type: TypeSyntax
    let initializer: ExprSyntax?
    /// The arguments of `@Attribute(…)`, if written.
    let attributeArguments: LabeledExprListSyntax?
    /// The arguments of `@Relationship(…)`, if written (empty list for `@Relationship`).
    let relationshipArguments: LabeledExprListSyntax?

    /// The type as a generic argument or a cast can spell it: `T!` becomes `T?` (an implicitly
    /// unwrapped optional may only be a declaration's type; its key path's value is `T?`).
    var typeAsArgument: String {
        if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return iuo.wrappedType.trimmedDescription + "?" }
        return type.trimmedDescription
    }

    /// The name of the zero-size stored peer that the property's init accessor initializes:
    /// `_name`, as SwiftData names it, or `_$name` when the class declares a `_name` of its own
    /// (a persisted `_cars` beside `cars`, as Core Data code often has).
    static func storageName(of name: String, in members: MemberBlockItemListSyntax) -> String {
        let plain = "_" + name
        let taken = members.contains { member in
            if let function = member.decl.as(FunctionDeclSyntax.self) { return function.name.text == plain }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { return false }
            return variable.bindings.contains {
                $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.filter({ $0 != "`" }) == plain
            }
        }
        return taken ? "_$" + name : plain
    }

    /// Whether the type is spelled as an Optional (`T?`, `T!`, `Optional<T>`); a typealias of
    /// one is not recognized, which only costs speed.
    var isOptional: Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
        }
        if let member = type.as(MemberTypeSyntax.self) {
            return member.name.text == "Optional" && member.baseType.trimmedDescription == "Swift"
                && member.genericArgumentClause != nil
        }
        return false
    }
}

/// What `@Model` does with one member of the class.
enum MemberClassification {
    /// Persist it through `@_PersistedProperty` accessors.
    case persisted(StoredProperty)
    /// Leave it alone (static, computed, transient, lazy, Cairn's own members, not a property).
    case ignored
    /// Leave it alone and report why it cannot be persisted.
    case invalid(ModelDiagnostic, at: Syntax)

    static func classify(_ decl: some DeclSyntaxProtocol) -> MemberClassification {
        guard let variable = decl.as(VariableDeclSyntax.self) else { return .ignored }
        let modifiers = variable.modifiers.map(\.name.tokenKind)
        if modifiers.contains(.keyword(.static)) || modifiers.contains(.keyword(.class))
            || modifiers.contains(.keyword(.lazy))
        {
            return .ignored
        }
        if variable.attributes.contains(where: { Self.attributeName($0).map(Self.transientNames.contains) ?? false }) {
            return .ignored
        }
        guard variable.bindings.count == 1, let binding = variable.bindings.first else {
            return .invalid(.multipleBindings(), at: Syntax(variable))
        }
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { return .ignored }
        let name = String(identifier.identifier.trimmedDescription.filter { $0 != "`" })
        if name.hasPrefix("_$") { return .ignored }
        if let type = binding.typeAnnotation?.type, type.trimmedDescription.hasSuffix("_SwiftDataNoType") {
            return .ignored
        }
        if let accessors = binding.accessorBlock {
            switch accessors.accessors {
            case .getter:
                return .ignored
            case .accessors(let list):
                let kinds = list.map(\.accessorSpecifier.tokenKind)
                if kinds.contains(.keyword(.willSet)) || kinds.contains(.keyword(.didSet)) {
                    return .invalid(.observers(name), at: Syntax(binding))
                }
                return .ignored
            @unknown default:
                return .ignored
            }
        }
        if variable.bindingSpecifier.tokenKind == .keyword(.let) {
            return .invalid(.letProperty(name), at: Syntax(variable.bindingSpecifier))
        }
        guard let type = binding.typeAnnotation?.type else {
            return .invalid(.missingType(name), at: Syntax(binding.pattern))
        }
        if let reason = unsupportedReason(type) {
            return .invalid(
                .unsupportedType(name, type: type.trimmedDescription, reason: reason),
                at: Syntax(type))
        }
        var attributeArguments: LabeledExprListSyntax?
        var relationshipArguments: LabeledExprListSyntax?
        for case .attribute(let attribute) in variable.attributes {
            switch attributeName(.attribute(attribute)) {
            case "Attribute", "Cairn.Attribute":
                attributeArguments = attribute.arguments?.as(LabeledExprListSyntax.self) ?? LabeledExprListSyntax([])
            case "Relationship", "Cairn.Relationship":
                relationshipArguments = attribute.arguments?.as(LabeledExprListSyntax.self) ?? LabeledExprListSyntax([])
            default:
                break
            }
        }
        return .persisted(StoredProperty(
            name: name, type: type.trimmed, initializer: binding.initializer?.value.trimmed,
            attributeArguments: attributeArguments, relationshipArguments: relationshipArguments))
    }

    private static let transientNames: Set<String> = ["Transient", "Cairn.Transient"]

    private static func attributeName(_ element: AttributeListSyntax.Element) -> String? {
        guard case .attribute(let attribute) = element else { return nil }
        return attribute.attributeName.trimmedDescription
    }

    /// Why a type can never be stored, judged from its spelling alone; `nil` if it may be.
    /// Everything else is checked by the type checker through the accessors' generic
    /// constraints (`Codable`, or a model).
    static func unsupportedReason(_ type: TypeSyntax) -> String? {
        if type.is(FunctionTypeSyntax.self) { return "a function" }
        if let attributed = type.as(AttributedTypeSyntax.self) { return unsupportedReason(attributed.baseType) }
        if let tuple = type.as(TupleTypeSyntax.self) {
            if tuple.elements.count == 1, let only = tuple.elements.first { return unsupportedReason(only.type) }
            return "a tuple"
        }
        if type.is(SomeOrAnyTypeSyntax.self) { return "an existential ('any' or 'some')" }
        if type.is(MetatypeTypeSyntax.self) { return "a metatype" }
        if type.is(CompositionTypeSyntax.self) { return "a protocol composition" }
        if let optional = type.as(OptionalTypeSyntax.self) { return unsupportedReason(optional.wrappedType) }
        if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unsupportedReason(iuo.wrappedType) }
        if let array = type.as(ArrayTypeSyntax.self) { return unsupportedReason(array.element) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return unsupportedReason(dictionary.key) ?? unsupportedReason(dictionary.value)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            switch identifier.name.text {
            case "Any": return "'Any'"
            case "AnyObject": return "'AnyObject'"
            case "Void": return "'Void'"
            default: break
            }
            for argument in identifier.genericArgumentClause?.arguments ?? [] {
                if case .type(let argumentType) = argument.argument, let reason = unsupportedReason(argumentType) {
                    return reason
                }
            }
        }
        return nil
    }
}
