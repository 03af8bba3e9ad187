import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Selection`: makes a struct a custom result row. It writes the conformance to
/// `Cairn.SelectionRow`: a `Columns` type whose initializer takes one expression per property
/// (`Stats.Columns(allCount: $0.count(), …)`, labels in declaration order: see
/// ``SelectionColumns``), `columnWidth`, `init(decoder:)` and `decode(from:)`; and to
/// `Cairn.Table` (`TableColumns`, `columns`, `tableName`: given, or inferred as `@Table` infers
/// it), so a common table expression selecting into the row reads as a table. Beside `@Table`
/// (`@Table @Selection`, a view's row as StructuredQueries once spelled it), it writes nothing:
/// `@Table` already writes `Columns`, and the row is a table `@Table`'s way, inserts included.
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
        // `@Table @Selection` (a temporary view's row): `@Table` writes `Columns` and the table
        // conformance, with inserts, so this macro adds nothing.
        let alsoTable = declaration.attributes.contains { element in
            guard let name = element.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
            return name == "Table" || name == "Cairn.Table"
        }
        if alsoTable, let name = TableMacro.explicitName(node) {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.selectionNameBesideTable(TableMacro.stringLiteral(name))))
        }
        if alsoTable { return [] }
        var lines = ["extension \(type): Cairn.SelectionRow, Cairn.Table, Cairn.BindableRow {"]
        lines.append(contentsOf: SelectionColumns.declaration(access: access, type: type, properties: properties))
        // The row as a table: what a common table expression selecting into it reads from.
        lines.append("    \(access)struct TableColumns: Cairn.TableDefinition, Sendable {")
        lines.append("        \(access)typealias QueryValue = \(type)")
        lines.append(contentsOf: TableMacro.columnDeclarations(access: access, type: type, columns: properties, groups: true))
        lines.append(contentsOf: TableMacro.columnLists(access: access, columns: properties))
        lines.append("    }")
        lines.append("    \(access)static let columns = TableColumns()")
        lines.append("    \(access)static let tableName = \(TableMacro.stringLiteral(tableName))")
        lines.append(contentsOf: TableMacro.columnWidth(access: access, columns: properties))
        lines.append(contentsOf: TableMacro.decoding(
            access: access, type: type, columns: properties, memberwise: shape.usesMemberwiseInitializer))
        // Bindable, so the row can be a column group of a table (`var timestamps: Timestamps`).
        lines.append(contentsOf: TableMacro.valuesFunction(
            access: access, columns: properties, indent: "    ", selection: true))
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
