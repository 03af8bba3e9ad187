import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ModelActor`: makes an actor a `ModelActor` whose isolated code runs on the serial executor
/// of its own `ModelContext`.
///
/// - member: `nonisolated let modelExecutor`, `nonisolated let modelContainer` and
///   `init(modelContainer:)`, which makes a context of the container and the executor;
/// - extension: the `Cairn.ModelActor` conformance.
///
/// The manual conformance it writes is documented on `ModelActor`.
public struct ModelActorMacro {}

extension ModelActorMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let actorDecl = declaration.as(ActorDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: ModelActorDiagnostic.notAnActor(
                declaration.is(ClassDeclSyntax.self) ? "a class" : ModelMacro.kindName(declaration))))
            return []
        }
        let access = accessPrefix(of: actorDecl.modifiers)
        return [
            "\(raw: access)nonisolated let modelExecutor: any Cairn.ModelExecutor",
            "\(raw: access)nonisolated let modelContainer: Cairn.ModelContainer",
            """
            \(raw: access)init(modelContainer: Cairn.ModelContainer) {
                let modelContext = Cairn.ModelContext(modelContainer)
                self.modelExecutor = Cairn.DefaultSerialModelExecutor(modelContext: modelContext)
                self.modelContainer = modelContainer
            }
            """,
        ]
    }

    /// `public ` or `package ` when the actor is, so the members are usable where it is.
    static func accessPrefix(of modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}

extension ModelActorMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self), !protocols.isEmpty else { return [] }
        let extensionDecl: DeclSyntax = "extension \(type.trimmed): Cairn.ModelActor {}"
        return extensionDecl.as(ExtensionDeclSyntax.self).map { [$0] } ?? []
    }
}

/// A diagnostic of `@ModelActor`, with a stable identifier for tests.
struct ModelActorDiagnostic: DiagnosticMessage, Error {
    let message: String
    let id: String
    var severity: DiagnosticSeverity { .error }
    var diagnosticID: MessageID { MessageID(domain: "Cairn.ModelActor", id: id) }

    static func notAnActor(_ kind: String) -> ModelActorDiagnostic {
        ModelActorDiagnostic(
            message: "@ModelActor can only be applied to an actor, not to \(kind); write 'actor' instead",
            id: "notAnActor")
    }
}
