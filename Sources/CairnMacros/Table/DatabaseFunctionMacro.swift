import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@DatabaseFunction`: makes a Swift function (or computed property) callable from typed SQL.
/// It writes a peer `$name` whose type is a small generated struct: its `callAsFunction` keeps
/// the function's argument labels and default values, and it holds the typed function
/// (`Cairn.ScalarDatabaseFunction`, or `Cairn.AggregateDatabaseFunction` when the only
/// parameter is a `some Sequence<…>`) to register with `db.add(function: $name)`.
///
/// ```swift
/// @DatabaseFunction func exclaim(_ text: String) -> String { text + "!" }
/// // func __macro_local_21exclaimIsolationProbefMu_() {}
/// // nonisolated var $exclaim: __macro_local_7exclaimfMu_ {
/// //     #_DatabaseFunctionIsolationCheck(__macro_local_21exclaimIsolationProbefMu_)
/// //     return __macro_local_7exclaimfMu_(base: Cairn.ScalarDatabaseFunction<String, String>("exclaim", isDeterministic: false, parameterNames: ["text"]) { (p0: String) in
/// //         exclaim(p0)
/// //     })
/// // }
/// // nonisolated struct __macro_local_7exclaimfMu_: Cairn.DatabaseFunctionWrapper {
/// //     let base: Cairn.ScalarDatabaseFunction<String, String>
/// //     func callAsFunction(_ p0: some Cairn.QueryExpression<String>) -> Cairn.SQLQueryExpression<String> {
/// //         base(p0)
/// //     }
/// // }
/// ```
///
/// `as:` names the representations SQL passes (`((Date.UnixTimeRepresentation) -> Bool).self`);
/// a function that returns nothing gets `Cairn.DatabaseVoid` as its output (SQL `NULL`). A
/// `@Table` row parameter needs nothing special: its type is the typed function's input, which
/// SQL passes as the row's columns.
public struct DatabaseFunctionMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let function = declaration.as(FunctionDeclSyntax.self)
        let property = declaration.as(VariableDeclSyntax.self)
        let getter = property.flatMap(Self.computedGetter)
        guard function != nil || getter != nil, let swiftName = function?.name.text ?? property?.bindings.first?
            .pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic(
                "databaseFunctionNotAFunction", "@DatabaseFunction can only be applied to a function or a computed property")))
            return []
        }
        if function?.genericParameterClause != nil || function?.signature.effectSpecifiers?.asyncSpecifier != nil
            || getter?.effectSpecifiers?.asyncSpecifier != nil {
            context.diagnose(Diagnostic(node: function.map { Syntax($0.name) } ?? Syntax(node), message: TableDiagnostic(
                "databaseFunctionUnsupported", "@DatabaseFunction cannot wrap a generic or async function")))
            return []
        }
        var sqlName = swiftName.trimmingBackticks
        var isDeterministic = "false"
        var representation: (inputs: [String]?, output: String)?
        for argument in node.arguments?.as(LabeledExprListSyntax.self) ?? [] {
            if argument.label == nil, let literal = argument.expression.as(StringLiteralExprSyntax.self),
               let text = literal.representedLiteralValue, !text.isEmpty {
                sqlName = text
            } else if argument.label?.text == "isDeterministic" {
                isDeterministic = argument.expression.trimmedDescription
            } else if argument.label?.text == "as" {
                representation = DatabaseFunctionSignature.representation(of: argument.expression)
                if representation == nil {
                    context.diagnose(Diagnostic(node: argument.expression, message: TableDiagnostic(
                        "databaseFunctionRepresentation",
                        "'as:' must be a function type literal such as '((Date.UnixTimeRepresentation) -> Bool).self'")))
                    return []
                }
            }
        }
        let declared: [FunctionParameterSyntax] = function.map { Array($0.signature.parameterClause.parameters) } ?? []
        var signature = Self.signature(of: declared, returning: function?.signature.returnClause?.type
                                        ?? getter.flatMap { _ in property?.bindings.first?.typeAnnotation?.type })
        if let representation {
            guard (representation.inputs?.count ?? 0) == signature.inputs.count else {
                context.diagnose(Diagnostic(node: node, message: TableDiagnostic(
                    "databaseFunctionRepresentation",
                    "'as:' must list one representation for each of the function's \(signature.inputs.count) arguments")))
                return []
            }
            for (index, type) in (representation.inputs ?? []).enumerated() { signature.inputs[index].representation = type }
            if signature.output != "Cairn.DatabaseVoid" { signature.output = representation.output }
        }
        for index in signature.inputs.indices where signature.inputs[index].defaultValue == "nil" {
            signature.inputs[index].defaultValue = "\(signature.inputs[index].representation).none"
        }

        let isThrowing = function?.signature.effectSpecifiers?.throwsClause != nil || getter?.effectSpecifiers?.throwsClause != nil
        let modifiers = function?.modifiers ?? property?.modifiers ?? []
        let isStatic = modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        // An instance member is called on the value `$name` was read from.
        let inType = context.lexicalContext.first.map {
            $0.is(StructDeclSyntax.self) || $0.is(ClassDeclSyntax.self) || $0.is(EnumDeclSyntax.self)
                || $0.is(ActorDeclSyntax.self) || $0.is(ExtensionDeclSyntax.self)
        } ?? false
        let receiver = !isStatic && inType ? "self." : ""
        let access = modifiers.first { ["public", "package", "internal", "fileprivate", "private"].contains($0.name.text) }
            .map { $0.name.text + " " } ?? ""
        let kind = signature.aggregate == nil ? "Cairn.ScalarDatabaseFunction" : "Cairn.AggregateDatabaseFunction"
        let baseType = kind + "<" + (signature.inputs.map(\.representation) + [signature.output]).joined(separator: ", ") + ">"
        let wrapper = context.makeUniqueName(swiftName.trimmingBackticks).text
        // A class instance is held weakly (as StructuredQueries does), so a registered function
        // does not keep it alive; a call after its release fails the statement.
        let isWeak = !isStatic && context.lexicalContext.first?.is(ClassDeclSyntax.self) == true
        let body = Self.body(
            of: signature, declared: declared, call: (isThrowing ? "try " : "") + receiver + swiftName,
            isProperty: function == nil,
            weakSelf: isWeak ? "Cairn.DatabaseFunctionOwnerReleased(function: \(TableMacro.stringLiteral(sqlName)))" : nil)
        let (callParameters, forwarded) = Self.callParameters(of: signature)
        var members = """
                let base: \(baseType)
                \(access)func callAsFunction(\(callParameters)) -> Cairn.SQLQueryExpression<\(signature.output)> {
                    base(\(forwarded))
                }
            """
        if signature.aggregate != nil, signature.inputs.count == 1, signature.inputs[0].label != "_" {
            // The unlabeled spellings with `distinct:` and with `order:` that StructuredQueries
            // offers every one-argument aggregate.
            let input = "_ p0: some Cairn.QueryExpression<\(signature.inputs[0].representation)>"
            members += """

                    \(access)func callAsFunction(\(input), distinct: Swift.Bool, order: (any Cairn.QueryOrderingTerm)? = nil, filter: (any Cairn.QueryExpression<Swift.Bool>)? = nil) -> Cairn.SQLQueryExpression<\(signature.output)> {
                        base(p0, distinct: distinct, order: order, filter: filter)
                    }
                    \(access)func callAsFunction(\(input), order: any Cairn.QueryOrderingTerm, filter: (any Cairn.QueryExpression<Swift.Bool>)? = nil) -> Cairn.SQLQueryExpression<\(signature.output)> {
                        base(p0, order: order, filter: filter)
                    }
                """
        }
        var conformances = "Cairn.DatabaseFunctionWrapper"
        if function == nil {
            // A computed property is used as an expression itself: `Values($epoch)`.
            conformances += ", Cairn.QueryExpression"
            members += """

                    \(access)typealias QueryValue = \(signature.output)
                    \(access)var sqlExpression: Cairn.SQLExpression { base().sqlExpression }
                """
        }
        let names = signature.inputs.isEmpty ? ""
            : ", parameterNames: [" + signature.inputs.map { TableMacro.stringLiteral($0.name) }.joined(separator: ", ") + "]"
        // The probe has the function's isolation (its context's, its own `nonisolated` or
        // `@MainActor`), so the check can tell a main-actor function without naming the
        // function itself, which may be generic (an aggregate) or overloaded.
        let probe = context.makeUniqueName(swiftName.trimmingBackticks + "IsolationProbe").text
        let isNonisolated = modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
        let isMainActor = (function?.attributes ?? property?.attributes ?? []).contains {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor"
        }
        let probeSource = "\(isMainActor ? "@MainActor " : "")\(isNonisolated ? "nonisolated " : "")"
            + "\(isStatic ? "static " : "")func \(probe)() {}"
        // `nonisolated`, as in StructuredQueries: under default main-actor isolation the wrapper
        // and `$name` would otherwise be main-actor isolated, and SQLite calls the function on
        // whichever thread runs the statement.
        let source = """
            \(access)\(isStatic ? "static " : "")nonisolated var $\(swiftName.trimmingBackticks): \(wrapper) {
                #_DatabaseFunctionIsolationCheck(\(probe))
                return \(wrapper)(base: \(baseType)(\(TableMacro.stringLiteral(sqlName)), isDeterministic: \(isDeterministic)\(names)) \(body))
            }
            """
        let structSource = """
            \(access)nonisolated struct \(wrapper): \(conformances) {
            \(members)
            }
            """
        return [DeclSyntax(stringLiteral: probeSource), DeclSyntax(stringLiteral: source), DeclSyntax(stringLiteral: structSource)]
    }

    /// The getter of a computed property (`var x: T { … }` or `{ get throws { … } }`).
    private static func computedGetter(_ property: VariableDeclSyntax) -> AccessorDeclSyntax? {
        guard property.bindings.count == 1, let binding = property.bindings.first,
              binding.typeAnnotation != nil, let accessors = binding.accessorBlock?.accessors
        else { return nil }
        switch accessors {
        case .getter:
            return AccessorDeclSyntax(accessorSpecifier: .keyword(.get))
        case .accessors(let list):
            return list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }
        @unknown default:
            return nil
        }
    }

    /// The SQL inputs and output of the declared parameters and result type.
    private static func signature(of parameters: [FunctionParameterSyntax], returning result: TypeSyntax?) -> DatabaseFunctionSignature {
        var output = result?.trimmedDescription ?? "Void"
        if ["Void", "()", "Swift.Void"].contains(output) { output = "Cairn.DatabaseVoid" }
        if parameters.count == 1, let parameter = parameters.first,
           let element = DatabaseFunctionSignature.sequenceElement(parameter.type.trimmedDescription) {
            let elements = DatabaseFunctionSignature.tupleElements(element)
            let inputs = elements.enumerated().map { offset, element in
                DatabaseFunctionSignature.Input(
                    label: elements.count == 1 ? parameter.firstName.text : element.label ?? "_",
                    name: elements.count == 1 ? parameterName(parameter) : element.label ?? "",
                    swiftType: element.type, representation: element.type, defaultValue: nil)
            }
            return DatabaseFunctionSignature(
                inputs: inputs, output: output,
                aggregate: (parameter.firstName.text, element, elements.contains { $0.label != nil }))
        }
        let inputs = parameters.map { parameter in
            DatabaseFunctionSignature.Input(
                label: parameter.firstName.text, name: parameterName(parameter), swiftType: parameter.type.trimmedDescription,
                representation: parameter.type.trimmedDescription,
                defaultValue: parameter.defaultValue?.value.trimmedDescription)
        }
        return DatabaseFunctionSignature(inputs: inputs, output: output, aggregate: nil)
    }

    /// The name the function's body knows a parameter by (empty for `_`).
    private static func parameterName(_ parameter: FunctionParameterSyntax) -> String {
        let name = (parameter.secondName ?? parameter.firstName).text.trimmingBackticks
        return name == "_" ? "" : name
    }

    /// The closure the typed function runs: it calls the Swift function with the decoded values.
    private static func body(
        of signature: DatabaseFunctionSignature, declared: [FunctionParameterSyntax], call: String, isProperty: Bool,
        weakSelf releasedError: String?
    ) -> String {
        let capture = releasedError == nil ? "" : "[weak self] "
        let prologue = releasedError.map { "guard let self else { throw \($0) }\n        return " } ?? ""
        if let aggregate = signature.aggregate {
            let rowType = signature.inputs.count == 1
                ? signature.inputs[0].swiftType
                : "(" + signature.inputs.map(\.swiftType).joined(separator: ", ") + ")"
            // Rows arrive as unlabeled tuples; a labeled element type gets its labels back.
            let rows = aggregate.isLabeledTuple ? "rows.map { row -> \(aggregate.element) in row }" : "rows"
            let label = aggregate.label == "_" ? "" : aggregate.label + ": "
            return "{ \(capture)(rows: [\(rowType)]) in\n        \(prologue)\(call)(\(label)\(rows))\n    }"
        }
        let parameters = signature.inputs.enumerated().map { "p\($0.offset): \($0.element.swiftType)" }.joined(separator: ", ")
        let arguments = declared.enumerated().map { offset, parameter in
            parameter.firstName.text == "_" ? "p\(offset)" : "\(parameter.firstName.text): p\(offset)"
        }.joined(separator: ", ")
        return "{ \(capture)(\(parameters)) in\n        \(prologue)\(call)\(isProperty ? "" : "(\(arguments))")\n    }"
    }

    /// `callAsFunction`'s parameters, with the function's labels and defaults, and the
    /// arguments it forwards to the typed function.
    private static func callParameters(of signature: DatabaseFunctionSignature) -> (String, String) {
        var parameters = signature.inputs.enumerated().map { offset, input in
            "\(input.label) p\(offset): some Cairn.QueryExpression<\(input.representation)>"
                + (input.defaultValue.map { " = \($0)" } ?? "")
        }
        var forwarded = signature.inputs.indices.map { "p\($0)" }
        if signature.aggregate != nil {
            parameters += ["distinct: Swift.Bool = false", "order: (any Cairn.QueryOrderingTerm)? = nil",
                           "filter: (any Cairn.QueryExpression<Swift.Bool>)? = nil"]
            forwarded += ["distinct: distinct", "order: order", "filter: filter"]
        }
        return (parameters.joined(separator: ", "), forwarded.joined(separator: ", "))
    }
}

extension String {
    /// The name without the backticks that make a keyword an identifier (`default`).
    fileprivate var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : self
    }
}
