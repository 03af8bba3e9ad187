import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Query(…) var workouts: [Workout]`: a live query stored in the peer `_workouts`, read
/// through the property.
///
/// - peer: `@ObservationIgnored private var _workouts: Cairn.Query<Workout, [Workout]> =
///   Cairn.Query<Workout, [Workout]>(…)` with the attribute's arguments;
/// - accessor: `get { _workouts.wrappedValue }`.
///
/// The model type comes from the property's declared type, `[Workout]`.
public struct QueryMacro {}

extension QueryMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = QueryProperty(declaration, node: node, context: context) else { return [] }
        let arguments = node.arguments?.as(LabeledExprListSyntax.self)?.trimmedDescription ?? ""
        let type = "Cairn.Query<\(property.element), \(property.result)>"
        return [
            "@ObservationIgnored private var _\(raw: property.name): \(raw: type) = \(raw: type)(\(raw: arguments))"
        ]
    }
}

extension QueryMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        // Diagnostics come from the peer expansion; here a bad declaration just gets nothing.
        guard let property = QueryProperty(declaration, node: node, context: context, diagnose: false) else { return [] }
        return ["get { _\(raw: property.name).wrappedValue }"]
    }
}

/// The name and types of a `@Query` property.
struct QueryProperty {
    let name: String
    let element: String
    let result: String

    init?(_ declaration: some DeclSyntaxProtocol, node: AttributeSyntax, context: some MacroExpansionContext, diagnose: Bool = true) {
        func fail(_ message: String) -> QueryProperty? {
            if diagnose { context.diagnose(Diagnostic(node: node, message: QueryDiagnostic(message: message))) }
            return nil
        }
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count == 1,
            let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription
        else {
            _ = fail("@Query applies to one stored property, as in '@Query var workouts: [Workout]'")
            return nil
        }
        guard variable.bindingSpecifier.tokenKind == .keyword(.var) else {
            _ = fail("@Query properties are read-only but declared with 'var': write 'var \(name)'")
            return nil
        }
        guard let type = binding.typeAnnotation?.type else {
            _ = fail("@Query needs the property's type to know the model: write 'var \(name): [Model]'")
            return nil
        }
        guard binding.initializer == nil else {
            _ = fail("@Query properties have no initial value; pass the query's arguments to @Query(…)")
            return nil
        }
        let element: String
        if let array = type.as(ArrayTypeSyntax.self) {
            element = array.element.trimmedDescription
        } else if let generic = type.as(IdentifierTypeSyntax.self), generic.name.text == "Array" || generic.name.text == "SectionedResults",
            let first = generic.genericArgumentClause?.arguments.first
        {
            element = first.argument.trimmedDescription
        } else {
            _ = fail("@Query properties are arrays of models: write 'var \(name): [Model]', not '\(type.trimmedDescription)'")
            return nil
        }
        self.name = name
        self.element = element
        result = type.trimmedDescription
    }
}

struct QueryDiagnostic: DiagnosticMessage {
    let message: String
    var severity: DiagnosticSeverity { .error }
    var diagnosticID: MessageID { MessageID(domain: "Cairn.Query", id: "invalidDeclaration") }
}
