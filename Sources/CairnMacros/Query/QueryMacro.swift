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
        diagnoseObservation(of: declaration, node: node, name: property.name, in: context)
        let arguments = node.arguments?.as(LabeledExprListSyntax.self)?.trimmedDescription ?? ""
        let type = "Cairn.Query<\(property.element), \(property.result)>"
        return [
            "@ObservationIgnored private var _\(raw: property.name): \(raw: type) = \(raw: type)(\(raw: arguments))"
        ]
    }
}

extension QueryMacro {
    /// In an `@Observable` class the property needs `@ObservationIgnored`, written after
    /// `@Query`: without it `@Observable` also makes the property tracked storage (a second
    /// getter and a second `_name`); written before `@Query`, Swift 6.3 takes
    /// `@ObservationIgnored` for the macro that produced `@Query`'s getter and rejects it. The
    /// compiler's own errors do not say this, so say it here.
    static func diagnoseObservation(
        of declaration: some DeclSyntaxProtocol, node: AttributeSyntax, name: String,
        in context: some MacroExpansionContext
    ) {
        guard let variable = declaration.as(VariableDeclSyntax.self) else { return }
        let names: [String] = variable.attributes.map { element in
            guard case .attribute(let attribute) = element else { return "" }
            return attribute.attributeName.trimmedDescription
        }
        let queryPosition = names.firstIndex { $0 == "Query" || $0 == "Cairn.Query" }
        let ignoredPosition = names.firstIndex { $0 == "ObservationIgnored" || $0 == "Observation.ObservationIgnored" }
        let spelling = "'@Query(…) @ObservationIgnored var \(name)'"
        if let ignoredPosition, let queryPosition, ignoredPosition < queryPosition {
            context.diagnose(Diagnostic(node: node, message: QueryDiagnostic(message:
                "write @ObservationIgnored after @Query, as in \(spelling): Swift rejects an accessor macro "
                    + "written after @ObservationIgnored ('produced an unexpected getter')")))
            return
        }
        let inObservableClass = context.lexicalContext.first?.as(ClassDeclSyntax.self)?.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            let name = attribute.attributeName.trimmedDescription
            return name == "Observable" || name == "Observation.Observable"
        } ?? false
        if inObservableClass, ignoredPosition == nil {
            context.diagnose(Diagnostic(node: node, message: QueryDiagnostic(message:
                "in an @Observable class, write \(spelling): without @ObservationIgnored, @Observable also "
                    + "turns '\(name)' into tracked storage; reading it stays tracked through the query")))
        }
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
