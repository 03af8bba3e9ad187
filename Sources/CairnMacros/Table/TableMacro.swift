import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Table` / `@Table("name")`: makes a struct a table of the typed SQL layer.
///
/// It writes one extension, the documented manual conformance to `Cairn.Table` (plus
/// `Cairn.PrimaryKeyedTable` when the struct has an `id` property or a
/// `@Column(primaryKey: true)` one, whose type may be a `@Selection` row: a composite key):
/// - `TableColumns`, one `Cairn.TableColumn` per stored property (`@Ephemeral` ones excepted),
///   or a `Cairn.ColumnGroup` where the property's type is a `@Selection` or `@Table` struct,
///   whose columns `allColumns` lists in its place;
/// - `Columns`, with an initializer taking one expression per column (`Reminder.Columns(id: …,
///   title: …)`), to select into the row as StructuredQueries' `Selection` does (its
///   `Cairn.SelectionRow` conformance; see ``SelectionColumns``);
/// - `columns`, `tableName` (given, or the type name with a lowercase first letter, pluralized:
///   `RemindersList` → `remindersLists`, `Category` → `categories`), `columnWidth`;
/// - `init(decoder:)` and `decode(from:)`, reading the columns in declaration order;
/// - `databaseValues()`, and with a primary key a `Draft` whose key is optional; generated
///   columns (`@Column(generated:)`) are in neither, and `writableColumns` lists the others.
public struct TableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let shape = TableShape.read(declaration, macro: "Table", node: node, diagnose: { message, location in
            context.diagnose(Diagnostic(node: location, message: message))
        }) else { return [] }
        let properties = shape.properties
        let declared = properties.filter(\.isPrimaryKeyAttribute)
        if declared.count > 1 {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.multiplePrimaryKeys(declared.map(\.name))))
            return []
        }
        let primaryKey = declared.first ?? properties.first { $0.name == "id" }
        let name = explicitName(node) ?? inferredTableName(shape.typeName)
        let source = tableExtension(
            shape: shape, type: type.trimmedDescription, tableName: name, schemaName: schemaName(node),
            primaryKey: primaryKey)
        return [try ExtensionDeclSyntax(SyntaxNodeString(stringLiteral: source))]
    }

    static func explicitName(_ node: AttributeSyntax) -> String? {
        guard let arguments = node.arguments?.as(LabeledExprListSyntax.self) else { return nil }
        for argument in arguments where argument.label == nil {
            if let literal = argument.expression.as(StringLiteralExprSyntax.self),
               let text = literal.representedLiteralValue, !text.isEmpty {
                return text
            }
        }
        return nil
    }

    /// The `schema:` argument's text, or nil when it is absent or empty.
    static func schemaName(_ node: AttributeSyntax) -> String? {
        guard let arguments = node.arguments?.as(LabeledExprListSyntax.self) else { return nil }
        for argument in arguments where argument.label?.text == "schema" {
            if let literal = argument.expression.as(StringLiteralExprSyntax.self),
               let text = literal.representedLiteralValue, !text.isEmpty {
                return text
            }
        }
        return nil
    }

    /// `RemindersList` → `remindersLists`, `Category` → `categories`, `Box` → `boxes`.
    static func inferredTableName(_ typeName: String) -> String {
        guard let first = typeName.first else { return typeName }
        let base = first.lowercased() + typeName.dropFirst()
        let lower = base.lowercased()
        let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
        if lower.hasSuffix("y"), lower.count > 1, !vowels.contains(lower[lower.index(lower.endIndex, offsetBy: -2)]) {
            return base.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return base + "es" }
        return base + "s"
    }

    /// `text` as a Swift string literal. Read by Unicode scalar, as Swift's lexer reads a
    /// literal: a `"` or `\\` followed by a combining mark is one Character that is neither,
    /// but it still ends the literal or starts an escape, so it must be escaped too.
    static func stringLiteral(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        escaped.append("\"")
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "\"" { escaped.append("\\") }
            escaped.append(scalar)
        }
        escaped.append("\"")
        return String(escaped)
    }

    /// A type as an expression: `(T?)` for optionals, so `.decode` and `.init` parse.
    static func typeExpression(_ type: String) -> String {
        type.hasSuffix("?") ? "(\(type))" : type
    }

    static func tableExtension(
        shape: TableShape, type: String, tableName: String, schemaName: String? = nil, primaryKey: TableProperty?
    ) -> String {
        let access = shape.access
        let columns = shape.properties
        // A struct with its own `Columns` type keeps it, and is no `SelectionRow`.
        let selectable = !shape.hasMember(named: "Columns")
        let conformances = (primaryKey == nil
            ? "Cairn.Table, Cairn.BindableRow, Cairn.InsertableRow"
            : "Cairn.Table, Cairn.PrimaryKeyedTable, Cairn.BindableRow, Cairn.InsertableRow")
            + (selectable ? ", Cairn.SelectionRow" : "")
        var lines: [String] = []
        lines.append("extension \(type): \(conformances) {")
        // Columns.
        let definition = primaryKey == nil ? "Cairn.TableDefinition" : "Cairn.PrimaryKeyedTableDefinition"
        lines.append("    \(access)struct TableColumns: \(definition), Sendable {")
        lines.append("        \(access)typealias QueryValue = \(type)")
        lines.append(contentsOf: columnDeclarations(access: access, type: type, columns: columns, groups: true))
        // The key's column, or its group for a composite key (`let id: Enrollment.ID`): the
        // same overloaded `_column` as the property's own, since only the type checker knows
        // which one the key's type makes it.
        if let primaryKey {
            lines.append("        \(access)let primaryKey = Cairn.TableColumn<\(type), \(primaryKey.storedType)>"
                + "._column(\(stringLiteral(primaryKey.columnName)), table: \(type).tableName)")
        }
        lines.append(contentsOf: columnLists(access: access, columns: columns))
        lines.append("    }")
        if selectable {
            lines.append(contentsOf: SelectionColumns.declaration(access: access, type: type, properties: columns))
        }
        lines.append("    \(access)static let columns = TableColumns()")
        lines.append("    \(access)static let tableName = \(stringLiteral(tableName))")
        if let schemaName {
            lines.append("    \(access)static let schemaName: String? = \(stringLiteral(schemaName))")
        }
        // `tags.map(\.primaryKey)`, as StructuredQueries offers it; a property of that name wins.
        if let primaryKey, !columns.contains(where: { $0.name == "primaryKey" }), !shape.hasMember(named: "primaryKey") {
            lines.append("    \(access)var primaryKey: \(primaryKey.type) {")
            lines.append("        \(primaryKey.name)")
            lines.append("    }")
        }
        lines.append(contentsOf: columnWidth(access: access, columns: columns))
        lines.append(contentsOf: decoding(
            access: access, type: type, columns: columns, memberwise: shape.usesMemberwiseInitializer))
        lines.append("    \(access)typealias Into = \(type)")
        lines.append(contentsOf: valuesFunction(access: access, columns: columns, indent: "    "))
        if primaryKey != nil || columns.contains(where: \.isLazyInitializable) {
            lines.append(contentsOf: draft(access: access, type: type, columns: columns, primaryKey: primaryKey))
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// One typed column per property, as members of a `TableColumns` struct: shared by
    /// `@Table` and `@Model` (whose models are tables too). With `groups`, a property whose type
    /// is a table or a `@Selection` row becomes a `Cairn.ColumnGroup`: `_column` is overloaded
    /// on the type, which the macro cannot see.
    static func columnDeclarations(access: String, type: String, columns: [TableProperty], groups: Bool) -> [String] {
        columns.map { column in
            "        \(access)let \(column.name) = Cairn.TableColumn<\(type), \(column.storedType)>"
                + (groups ? "._column(" : "(") + "\(stringLiteral(column.columnName)), table: \(type).tableName)"
        }
    }

    /// `allColumns` and `writableColumns` (generated columns left out), each group replaced by
    /// its columns.
    static func columnLists(access: String, columns: [TableProperty]) -> [String] {
        let all = columns.map(\.name).joined(separator: ", ")
        let written = columns.filter { !$0.isGenerated }.map(\.name).joined(separator: ", ")
        return [
            "        \(access)var allColumns: [any Cairn.TableColumnExpression] {",
            "            Self._flattened([\(all)])",
            "        }",
            "        \(access)var writableColumns: [any Cairn.TableColumnExpression] {",
            "            Self._flattened([\(written)], writable: true)",
            "        }",
        ]
    }

    /// `columnWidth`: the columns' widths summed by `reduce`, as a chain of `+` would take the
    /// type checker milliseconds per table weighing typed SQL's `+` on expressions.
    static func columnWidth(access: String, columns: [TableProperty]) -> [String] {
        let widths = columns.map { "\(typeExpression($0.storedType)).columnWidth" }
        return [
            "    \(access)static var columnWidth: Int {",
            "        " + (widths.isEmpty ? "0" : "[\(widths.joined(separator: ", "))].reduce(0, &+)"),
            "    }",
        ]
    }

    /// `init(decoder:)`, and `decode(from:)`, which the fetch methods call for every row. When
    /// the struct has its memberwise initializer, `decode(from:)` reads the columns into
    /// locals and passes them to it: built that way, the row is returned without the copy that
    /// `init(decoder:)` makes of it (see ``TableShape/memberwiseInitializerIsUsable(_:)``).
    static func decoding(access: String, type: String, columns: [TableProperty], memberwise: Bool) -> [String] {
        var lines = ["    \(access)init(decoder: inout Cairn.QueryDecoder) throws {"]
        for column in columns {
            lines.append("        self.\(column.name) = try decoder.decodeColumn(\(typeExpression(column.storedType)).self)")
        }
        lines.append("    }")
        lines.append("    \(access)static func decode(from decoder: inout Cairn.QueryDecoder) throws -> \(type) {")
        if memberwise {
            for (index, column) in columns.enumerated() {
                lines.append("        let _\(index) = try decoder.decodeColumn(\(typeExpression(column.storedType)).self)")
            }
            let arguments = columns.enumerated().map { "\($1.name): _\($0)" }.joined(separator: ", ")
            lines.append("        return \(type)(\(arguments))")
        } else {
            lines.append("        try \(type)(decoder: &decoder)")
        }
        lines.append("    }")
        return lines
    }

    /// `databaseValues()`: each written (not generated) property in its stored type, bound; a
    /// column group's properties in its place. A `@Selection` row's (`selection`) goes through
    /// `_appendSelected`, which lets a property of a type that cannot be bound compile and
    /// throw, since the row may only ever be selected into.
    static func valuesFunction(
        access: String, columns: [TableProperty], indent: String, optionalColumns: Set<String> = [], selection: Bool = false
    ) -> [String] {
        let written = columns.filter { !$0.isGenerated }
        var lines = [
            "\(indent)\(access)func databaseValues() throws -> [Cairn.DatabaseValue] {",
            "\(indent)    var values: [Cairn.DatabaseValue] = []",
            "\(indent)    values.reserveCapacity(\(written.count))",
        ]
        for column in written {
            let stored = optionalColumns.contains(column.name)
                ? "Optional<\(column.storedType)>" : typeExpression(column.storedType)
            lines.append(selection
                ? "\(indent)    try values._appendSelected(self.\(column.name), as: \(stored).self, property: \(stringLiteral(column.name)))"
                : "\(indent)    try values._append(self.\(column.name), as: \(stored).self, property: \(stringLiteral(column.name)))")
        }
        lines.append("\(indent)    return values")
        lines.append("\(indent)}")
        return lines
    }

    /// `Draft`: the written columns (generated ones left out), the primary key and
    /// `@Column(lazyInitializable: true)` columns optional, `nil` unless given, so that the
    /// database fills them in.
    /// `nonisolated`: under default main-actor isolation a nested type is main-actor isolated,
    /// and its `TableDraft` conformance could then not serve `PrimaryKeyedTable.Draft`.
    static func draft(access: String, type: String, columns all: [TableProperty], primaryKey: TableProperty?) -> [String] {
        let columns = all.filter { !$0.isGenerated }
        var lines = ["    \(access)nonisolated struct Draft: Cairn.TableDraft {", "        \(access)typealias Into = \(type)"]
        var parameters: [String] = []
        var optionalColumns: Set<String> = []
        for column in columns {
            let isLazy = column.name == primaryKey?.name || column.isLazyInitializable
            if isLazy && !column.isOptional { optionalColumns.insert(column.name) }
            let propertyType = isLazy && !column.isOptional ? "\(column.type)?" : column.type
            lines.append("        \(access)var \(column.name): \(propertyType)")
            let defaultValue = isLazy ? "nil" : column.initializer ?? (column.isOptional ? "nil" : nil)
            parameters.append("\(column.name): \(propertyType)" + (defaultValue.map { " = \($0)" } ?? ""))
        }
        let lazyColumns = columns.filter { $0.isLazyInitializable && $0.name != primaryKey?.name }
        if !lazyColumns.isEmpty {
            let names = lazyColumns.map { stringLiteral($0.columnName) }.joined(separator: ", ")
            lines.append("        \(access)static var lazilyInitializedColumns: [String] {")
            lines.append("            [\(names)]")
            lines.append("        }")
        }
        lines.append("        \(access)init(")
        lines.append(parameters.map { "            \($0)" }.joined(separator: ",\n"))
        lines.append("        ) {")
        for column in columns {
            lines.append("            self.\(column.name) = \(column.name)")
        }
        lines.append("        }")
        // `Reminder.Draft(reminder)`: a draft of a stored row, to edit and upsert.
        lines.append("        \(access)init(_ other: \(type)) {")
        lines.append("            self.init(" + columns.map { "\($0.name): other.\($0.name)" }.joined(separator: ", ") + ")")
        lines.append("        }")
        lines.append(contentsOf: valuesFunction(
            access: access, columns: columns, indent: "        ", optionalColumns: optionalColumns))
        lines.append("    }")
        return lines
    }
}

/// `@Column(…)` and `@Ephemeral`: markers read by `@Table` / `@Selection`. Expand to nothing.
public struct ColumnMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// `@Ephemeral`: the property is not a column; it keeps its default value in decoded rows.
public struct EphemeralMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
