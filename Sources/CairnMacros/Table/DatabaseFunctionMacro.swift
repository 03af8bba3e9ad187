import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@DatabaseFunction`: makes a Swift function callable from typed SQL. It writes a peer
/// `$name` of type `Cairn.ScalarDatabaseFunction<Inputs…, Output>` whose SQL name is the
/// function's (or the one given), to register with `db.add(function: $name)` and call in a
/// query as `$name(expression, …)`.
///
/// ```swift
/// @DatabaseFunction func exclaim(_ text: String) -> String { text + "!" }
/// // var $exclaim: Cairn.ScalarDatabaseFunction<String, String> {
/// //     Cairn.ScalarDatabaseFunction("exclaim", isDeterministic: false) { (p0: String) in exclaim(p0) }
/// // }
/// ```
///
/// A function that returns nothing gets `Cairn.DatabaseVoid` as its output (SQL `NULL`).
public struct DatabaseFunctionMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let function = declaration.as(FunctionDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic(
                "databaseFunctionNotAFunction", "@DatabaseFunction can only be applied to a function")))
            return []
        }
        // A function that returns nothing runs for its effect; SQL sees NULL (`DatabaseVoid`).
        var output = function.signature.returnClause?.type.trimmedDescription ?? "Void"
        if ["Void", "()", "Swift.Void"].contains(output) { output = "Cairn.DatabaseVoid" }
        if function.genericParameterClause != nil || function.signature.effectSpecifiers?.asyncSpecifier != nil {
            context.diagnose(Diagnostic(node: function.name, message: TableDiagnostic(
                "databaseFunctionUnsupported", "@DatabaseFunction cannot wrap a generic or async function")))
            return []
        }
        let swiftName = function.name.text
        var sqlName = swiftName
        var isDeterministic = "false"
        for argument in node.arguments?.as(LabeledExprListSyntax.self) ?? [] {
            if argument.label == nil, let literal = argument.expression.as(StringLiteralExprSyntax.self),
               let text = literal.representedLiteralValue, !text.isEmpty {
                sqlName = text
            } else if argument.label?.text == "isDeterministic" {
                isDeterministic = argument.expression.trimmedDescription
            }
        }
        let parameters = Array(function.signature.parameterClause.parameters)
        let types = parameters.map { $0.type.trimmedDescription }
        let closureParameters = types.enumerated().map { "p\($0.offset): \($0.element)" }.joined(separator: ", ")
        let callArguments = parameters.enumerated().map { offset, parameter in
            parameter.firstName.text == "_" ? "p\(offset)" : "\(parameter.firstName.text): p\(offset)"
        }.joined(separator: ", ")
        let isThrowing = function.signature.effectSpecifiers?.throwsClause != nil
        let isStatic = function.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        let access = function.modifiers.first { ["public", "package", "internal", "fileprivate", "private"].contains($0.name.text) }
            .map { $0.name.text + " " } ?? ""
        let type = "Cairn.ScalarDatabaseFunction<" + (types + [output]).joined(separator: ", ") + ">"
        let call = (isThrowing ? "try " : "") + "\(swiftName)(\(callArguments))"
        let source = """
            \(access)\(isStatic ? "static " : "")var $\(swiftName): \(type) {
                Cairn.ScalarDatabaseFunction(\(TableMacro.stringLiteral(sqlName)), isDeterministic: \(isDeterministic)) { (\(closureParameters)) in
                    \(call)
                }
            }
            """
        return [DeclSyntax(stringLiteral: source)]
    }
}
