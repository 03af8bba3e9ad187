import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Selection`: makes a struct a custom result row. It writes the conformance to
/// `Cairn.SelectionRow`: a `Columns` type whose initializer takes one expression per property
/// (`Stats.Columns(allCount: $0.count(), …)`, labels in declaration order), `columnWidth`,
/// `init(decoder:)` and `decode(from:)`; and to `Cairn.Table` (`TableColumns`, `columns`,
/// `tableName`: given, or inferred as `@Table` infers it), so a common table expression
/// selecting into the row reads as a table. Beside `@Table` (`@Table @Selection`), it writes
/// only `Columns`, and the row is a table `@Table`'s way, inserts included (a view's row).
public struct SelectionMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let shape = TableShape.read(declaration, macro: "Selection", node: node, diagnose: { message, location in
            context.diagnose(Diagnostic(node: location, message: message))
        }) else { return [] }
        let type = type.trimmedDescription
        let access = shape.access
        let properties = shape.properties
        let tableName = TableMacro.explicitName(node) ?? TableMacro.inferredTableName(shape.typeName)
        // `@Table @Selection` (a temporary view's row, as StructuredQueries spells it): `@Table`
        // writes the table conformance, with inserts; this macro adds only `Columns`.
        let alsoTable = declaration.attributes.contains { element in
            guard let name = element.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
            return name == "Table" || name == "Cairn.Table"
        }
        if alsoTable, let name = TableMacro.explicitName(node) {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.selectionNameBesideTable(TableMacro.stringLiteral(name))))
        }
        var lines = [
            "extension \(type): " + (alsoTable ? "Cairn.SelectionRow {" : "Cairn.SelectionRow, Cairn.Table, Cairn.BindableRow {")
        ]
        lines.append("    \(access)struct Columns: Cairn.QueryExpression {")
        lines.append("        \(access)typealias QueryValue = \(type)")
        lines.append("        \(access)let selectedExpressions: [Cairn.SQLExpression]")
        lines.append("        \(access)var sqlExpression: Cairn.SQLExpression {")
        lines.append("            Cairn.SQLExpression.selectionList(selectedExpressions)")
        lines.append("        }")
        // A property with a default value (and no representation) gets it as the default
        // argument, so `Stats.Columns(allCount: …)` may leave other counts out.
        let parameters = properties.map { property in
            let defaultValue = property.storedType == property.type ? property.initializer.map { " = \($0)" } ?? "" : ""
            return "            \(property.name): some Cairn.QueryExpression<\(property.storedType)>" + defaultValue
        }
        if parameters.isEmpty {
            lines.append("        \(access)init() {")
        } else {
            lines.append("        \(access)init(")
            lines.append(parameters.joined(separator: ",\n"))
            lines.append("        ) {")
        }
        lines.append("            var selectedExpressions: [Cairn.SQLExpression] = []")
        for property in properties {
            lines.append("            selectedExpressions += \(property.name).selectedExpressions")
        }
        lines.append("            self.selectedExpressions = selectedExpressions")
        lines.append("        }")
        lines.append("    }")
        if alsoTable {
            lines.append("}")
            return [try ExtensionDeclSyntax(SyntaxNodeString(stringLiteral: lines.joined(separator: "\n")))]
        }
        // The row as a table: what a common table expression selecting into it reads from.
        lines.append("    \(access)struct TableColumns: Cairn.TableDefinition, Sendable {")
        lines.append("        \(access)typealias QueryValue = \(type)")
        lines.append(contentsOf: TableMacro.columnDeclarations(access: access, type: type, columns: properties, groups: true))
        lines.append(contentsOf: TableMacro.columnLists(access: access, columns: properties))
        lines.append("    }")
        lines.append("    \(access)static let columns = TableColumns()")
        lines.append("    \(access)static let tableName = \(TableMacro.stringLiteral(tableName))")
        lines.append("    \(access)static var columnWidth: Int {")
        lines.append("        " + (properties.isEmpty ? "0" : properties.map {
            "\(TableMacro.typeExpression($0.storedType)).columnWidth"
        }.joined(separator: " + ")))
        lines.append("    }")
        lines.append(contentsOf: TableMacro.decoding(
            access: access, type: type, columns: properties, memberwise: shape.usesMemberwiseInitializer))
        // Bindable, so the row can be a column group of a table (`var timestamps: Timestamps`).
        lines.append(contentsOf: TableMacro.valuesFunction(
            access: access, columns: properties, indent: "    ", optionalKey: nil, selection: true))
        lines.append("}")
        return [try ExtensionDeclSyntax(SyntaxNodeString(stringLiteral: lines.joined(separator: "\n")))]
    }
}

/// `#sql("…", as: T.self)`: SQL written by hand, with interpolations bound or quoted
/// (see `QueryFragment`). Expands to `Cairn.SQLQueryExpression("…", as: T.self)` after a light
/// check of the literal text: parentheses balance and quotes close. The literal is typed as
/// `QueryFragment`, so its interpolations bind values and render expressions.
/// `#bind(value)` / `#bind(value, as: Representation.self)` → `Cairn.BindQueryExpression(…)`.
public struct BindMacro: ExpressionMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> ExprSyntax {
        let arguments = node.arguments.map { $0.trimmed.with(\.trailingComma, nil).trimmedDescription }
        return "Cairn.BindQueryExpression(\(raw: arguments.joined(separator: ", ")))"
    }
}

public struct SQLMacro: ExpressionMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> ExprSyntax {
        let arguments = Array(node.arguments)
        guard let fragment = arguments.first else {
            throw TableDiagnostic.unbalancedSQL("expected a SQL string literal")
        }
        if let literal = fragment.expression.as(StringLiteralExprSyntax.self),
           let problem = lint(literal) {
            context.diagnose(Diagnostic(node: literal, message: TableDiagnostic.unbalancedSQL(problem)))
        }
        if let type = arguments.dropFirst().first(where: { $0.label?.text == "as" }) {
            return "Cairn.SQLQueryExpression(\(fragment.expression.trimmed) as Cairn.QueryFragment, as: \(type.expression.trimmed))"
        }
        return "Cairn.SQLQueryExpression(\(fragment.expression.trimmed) as Cairn.QueryFragment)"
    }

    /// A problem in the literal SQL text (interpolations are opaque), or `nil`. Read by Unicode
    /// scalar, as SQLite reads it: a quote followed by a combining mark is one Character that is
    /// not a quote, but to SQLite it still opens or closes a string.
    static func lint(_ literal: StringLiteralExprSyntax) -> String? {
        var depth = 0
        var quote: Unicode.Scalar?
        for segment in literal.segments {
            guard let text = segment.as(StringSegmentSyntax.self)?.content.text else { continue }
            for scalar in text.unicodeScalars {
                if let open = quote {
                    if scalar == open { quote = nil }
                    continue
                }
                switch scalar {
                case "'", "\"": quote = scalar
                case "(": depth += 1
                case ")":
                    depth -= 1
                    if depth < 0 { return "')' without a matching '('" }
                default: break
                }
            }
        }
        if let quote { return "unterminated \(quote) quote; bind values with \\(value) instead of quoting them" }
        if depth > 0 { return "\(depth) unclosed '('" }
        return nil
    }
}
