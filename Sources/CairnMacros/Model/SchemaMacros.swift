import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Attribute(…)`: options read by `@Model` into the property's metadata. Expands to nothing.
public struct AttributeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// `@Relationship(…)`: options read by `@Model` into the property's metadata. Expands to nothing.
public struct RelationshipMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// `#Unique<Person>([\.email], [\.givenName, \.familyName])` →
/// `public static var _$uniquenessConstraints: [[AnyKeyPath]] { Cairn.Schema.Unique<Person>(…).keyPaths }`.
public struct UniqueMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let model = node.genericArgumentClause?.arguments.first else {
            context.diagnose(Diagnostic(node: node, message: ModelDiagnostic.missingModelType("Unique")))
            return []
        }
        return [
            """
            public static var _$uniquenessConstraints: [[AnyKeyPath]] {
                Cairn.Schema.Unique<\(model.argument.trimmed)>(\(node.arguments.trimmed)).keyPaths
            }
            """
        ]
    }
}

/// `#Index<Workout>([\.startedAt], [\.title, \.minutes])` →
/// `public static var _$indices: [[AnyKeyPath]] { Cairn.Schema.Index<Workout>(…).keyPaths }`.
public struct IndexMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let model = node.genericArgumentClause?.arguments.first else {
            context.diagnose(Diagnostic(node: node, message: ModelDiagnostic.missingModelType("Index")))
            return []
        }
        return [
            """
            public static var _$indices: [[AnyKeyPath]] {
                Cairn.Schema.Index<\(model.argument.trimmed)>(\(node.arguments.trimmed)).keyPaths
            }
            """
        ]
    }
}
