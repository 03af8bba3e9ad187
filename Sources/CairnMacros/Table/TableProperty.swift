import SwiftSyntax

/// A stored property of a `@Table` or `@Selection` struct, as its declaration spells it.
struct TableProperty {
    /// The Swift property name.
    let name: String
    /// The SQL column name (`@Column("name")`, or the property name).
    let columnName: String
    /// The property's Swift type (written, or inferred from a literal default).
    let type: String
    /// The type the column stores: the `@Column(as:)` representation, or `type`.
    let storedType: String
    /// The default value, if written.
    let initializer: String?
    /// Whether the property is `@Column(primaryKey: true)` (or later inferred as `id`).
    let isPrimaryKeyAttribute: Bool
    /// Whether the declaration is `let`.
    let isLet: Bool
    /// Whether the database generates the column (`@Column(generated: .virtual)` or
    /// `.stored`): read, never written.
    var isGenerated = false
    /// Whether the property is `@Column(lazyInitializable: true)`: optional in the `Draft`, so
    /// the database may fill it in (a default, a trigger).
    var isLazyInitializable = false

    var isOptional: Bool { type.hasSuffix("?") || type.hasPrefix("Optional<") }
}

/// What a `@Table`/`@Selection` macro does with one member of the struct.
enum TableMember {
    case column(TableProperty)
    case ignored
    case invalid(TableDiagnostic, at: Syntax)

    static func classify(_ decl: some DeclSyntaxProtocol, macro: String) -> TableMember {
        guard let variable = decl.as(VariableDeclSyntax.self) else { return .ignored }
        let modifiers = variable.modifiers.map(\.name.tokenKind)
        if modifiers.contains(.keyword(.static)) || modifiers.contains(.keyword(.lazy)) { return .ignored }
        let isEphemeral = variable.attributes.contains { attributeName($0) == "Ephemeral" }
        guard variable.bindings.count == 1, let binding = variable.bindings.first else {
            return isEphemeral ? .ignored : .invalid(.multipleBindings(), at: Syntax(variable))
        }
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { return .ignored }
        let name = identifier.identifier.trimmedDescription.filter { $0 != "`" }
        if let accessors = binding.accessorBlock {
            if case .accessors(let list) = accessors.accessors,
               list.allSatisfy({ [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) })
            {
                // Observers on a stored property: still a column.
            } else {
                return .ignored
            }
        }
        if isEphemeral {
            return binding.initializer == nil
                ? .invalid(.ephemeralWithoutDefault(name), at: Syntax(binding)) : .ignored
        }
        let initializer = binding.initializer?.value.trimmedDescription
        let type: String
        if let written = binding.typeAnnotation?.type {
            if let reason = MemberClassification.unsupportedReason(written) {
                return .invalid(
                    .unsupportedType(macro, name, type: written.trimmedDescription, reason: reason),
                    at: Syntax(written))
            }
            type = written.trimmedDescription
        } else if let value = binding.initializer?.value, let inferred = literalType(value) {
            type = inferred
        } else {
            return .invalid(.missingType(macro, name), at: Syntax(binding.pattern))
        }
        var columnName = name
        var storedType = type
        var isPrimaryKey = false
        var isGenerated = false
        var isLazyInitializable = false
        // `@Columns` is StructuredQueries' older spelling of `@Column` for a group (`as:`, `primaryKey:`).
        for case .attribute(let attribute) in variable.attributes
        where ["Column", "Columns"].contains(attributeName(.attribute(attribute))) {
            for argument in attribute.arguments?.as(LabeledExprListSyntax.self) ?? [] {
                switch argument.label?.text {
                case nil:
                    if let literal = argument.expression.as(StringLiteralExprSyntax.self),
                       let text = literal.representedLiteralValue, !text.isEmpty {
                        columnName = text
                    }
                case "as":
                    var text = argument.expression.trimmedDescription
                    if text.hasSuffix(".self") { text.removeLast(5) }
                    storedType = text
                case "primaryKey":
                    isPrimaryKey = argument.expression.trimmedDescription == "true"
                case "generated":
                    isGenerated = argument.expression.trimmedDescription != "nil"
                case "lazyInitializable":
                    isLazyInitializable = argument.expression.trimmedDescription == "true"
                default:
                    break
                }
            }
        }
        return .column(TableProperty(
            name: name, columnName: columnName, type: type, storedType: storedType,
            initializer: initializer, isPrimaryKeyAttribute: isPrimaryKey,
            isLet: variable.bindingSpecifier.tokenKind == .keyword(.let), isGenerated: isGenerated,
            isLazyInitializable: isLazyInitializable))
    }

    /// The type of a literal default value (`""` → String, `0` → Int, `0.5` → Double,
    /// `false` → Bool); `nil` for anything else.
    static func literalType(_ expression: ExprSyntax) -> String? {
        if expression.is(StringLiteralExprSyntax.self) { return "String" }
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return literalType(prefix.expression)
        }
        // `Status()`, `Timestamps(createdAt: …)`: an initializer call names its type.
        if let call = expression.as(FunctionCallExprSyntax.self), let name = typeName(call.calledExpression) {
            return name
        }
        return nil
    }

    /// `Status` or `Item.Status` when every component is capitalized, as type names are.
    static func typeName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let text = reference.baseName.text
            return text.first?.isUppercase == true ? text : nil
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, let prefix = typeName(base) {
            let text = member.declName.baseName.text
            return text.first?.isUppercase == true ? prefix + "." + text : nil
        }
        return nil
    }

    static func attributeName(_ element: AttributeListSyntax.Element) -> String? {
        guard case .attribute(let attribute) = element else { return nil }
        let name = attribute.attributeName.trimmedDescription
        return name.hasPrefix("Cairn.") ? String(name.dropFirst(6)) : name
    }
}

/// The collected columns of a struct, with diagnostics already reported.
struct TableShape {
    let typeName: String
    let access: String
    let properties: [TableProperty]
    /// Whether `decode(from:)` may build a row with the struct's implicit memberwise
    /// initializer, passing the columns in order and leaving the other properties to their
    /// defaults (see ``memberwiseInitializerIsUsable(_:)``).
    let usesMemberwiseInitializer: Bool
    /// The names the struct's own body declares (properties of any kind, functions, nested
    /// types), so a generated member never collides with one.
    var declaredNames: Set<String> = []

    func hasMember(named name: String) -> Bool { declaredNames.contains(name) }

    static func read(
        _ declaration: some DeclGroupSyntax, macro: String, node: AttributeSyntax,
        diagnose: (TableDiagnostic, Syntax) -> Void
    ) -> TableShape? {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            diagnose(.notAStruct(macro, kind: kindName(declaration)), Syntax(node))
            return nil
        }
        var properties: [TableProperty] = []
        var valid = true
        for member in structDecl.memberBlock.members {
            switch TableMember.classify(member.decl, macro: macro) {
            case .column(let property): properties.append(property)
            case .ignored: break
            case .invalid(let message, let location):
                diagnose(message, location)
                valid = false
            }
        }
        guard valid else { return nil }
        let modifiers = structDecl.modifiers.map(\.name.text)
        let access = modifiers.contains("public") || modifiers.contains("open") ? "public " : ""
        var names: Set<String> = []
        for member in structDecl.memberBlock.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                for binding in variable.bindings {
                    if let identifier = binding.pattern.as(IdentifierPatternSyntax.self) {
                        names.insert(identifier.identifier.trimmedDescription.filter { $0 != "`" })
                    }
                }
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                names.insert(function.name.trimmedDescription)
            } else if let name = nestedTypeName(member.decl) {
                names.insert(name)
            }
        }
        return TableShape(
            typeName: structDecl.name.trimmedDescription, access: access, properties: properties,
            usesMemberwiseInitializer: memberwiseInitializerIsUsable(structDecl), declaredNames: names)
    }

    /// Whether the struct has Swift's implicit memberwise initializer with a parameter for each
    /// column, in declaration order, and a default for every other parameter: no initializer
    /// in its body, no generic parameters, and every stored property a column or an
    /// `@Ephemeral` `var` with a default, without other attributes or `private` access (which
    /// would change or hide the initializer). When in doubt, no: `init(decoder:)` then builds
    /// the row, which costs a copy of it (a retain and a release per reference-counted column:
    /// the optimizer keeps a throwing initializer's `self` in memory and loads it twice).
    static func memberwiseInitializerIsUsable(_ structDecl: StructDeclSyntax) -> Bool {
        if structDecl.genericParameterClause != nil { return false }
        // Another attached macro could add an initializer to the body, which would take the
        // memberwise one away; the attributes known not to are let through.
        let harmless: Set<String> = [
            "Table", "Selection", "frozen", "MainActor", "available", "dynamicMemberLookup", "preconcurrency",
        ]
        for attribute in structDecl.attributes {
            guard let name = TableMember.attributeName(attribute), harmless.contains(name) else { return false }
        }
        for member in structDecl.memberBlock.members {
            // An `#if` block may hold an initializer or stored properties the macro cannot see.
            if member.decl.is(InitializerDeclSyntax.self) || member.decl.is(MacroExpansionDeclSyntax.self)
                || member.decl.is(IfConfigDeclSyntax.self)
            {
                return false
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let modifiers = variable.modifiers.map(\.name.tokenKind)
            if modifiers.contains(.keyword(.static)) || modifiers.contains(.keyword(.class)) { continue }
            if modifiers.contains(.keyword(.lazy)) || modifiers.contains(.keyword(.private))
                || modifiers.contains(.keyword(.fileprivate))
            {
                return false
            }
            guard variable.bindings.count == 1, let binding = variable.bindings.first,
                binding.pattern.is(IdentifierPatternSyntax.self)
            else { return false }
            if let accessors = binding.accessorBlock {
                guard case .accessors(let list) = accessors.accessors,
                    list.allSatisfy({ [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) })
                else { continue }  // computed: not a parameter
            }
            let attributes = variable.attributes.map { TableMember.attributeName($0) }
            if attributes.contains(where: { $0 != "Column" && $0 != "Columns" && $0 != "Ephemeral" }) { return false }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            if attributes.contains("Ephemeral") {
                // A `var` with a default is a defaulted parameter; a `let` with one is none.
                continue
            }
            // A column `let` with a value is no parameter, and could not be decoded anyway.
            if isLet && binding.initializer != nil { return false }
        }
        return true
    }

    /// The name of a type the struct nests (`struct Columns`, `typealias Columns = …`).
    static func nestedTypeName(_ decl: DeclSyntax) -> String? {
        if let nested = decl.as(StructDeclSyntax.self) { return nested.name.text }
        if let nested = decl.as(EnumDeclSyntax.self) { return nested.name.text }
        if let nested = decl.as(ClassDeclSyntax.self) { return nested.name.text }
        if let nested = decl.as(TypeAliasDeclSyntax.self) { return nested.name.text }
        return nil
    }

    static func kindName(_ declaration: some DeclGroupSyntax) -> String {
        if declaration.is(ClassDeclSyntax.self) { return "a class" }
        if declaration.is(EnumDeclSyntax.self) { return "an enum" }
        if declaration.is(ActorDeclSyntax.self) { return "an actor" }
        if declaration.is(ProtocolDeclSyntax.self) { return "a protocol" }
        if declaration.is(ExtensionDeclSyntax.self) { return "an extension" }
        return "this declaration"
    }
}
