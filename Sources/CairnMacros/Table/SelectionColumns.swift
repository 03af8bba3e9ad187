/// `Columns`, the selection of a `@Table` or `@Selection` row: what `Row.Columns(a: …, b: …)`
/// builds in a query's `select`, a common table expression's or a view's rows. Written by both
/// macros from this one place, so a table and a selection row take the same arguments.
enum SelectionColumns {
    /// The nested `Columns` struct: an initializer taking one expression per column property, in
    /// declaration order, each of the property's stored type (its `@Column(as:)` representation,
    /// or the group's row type for a column group), whose columns it selects in order.
    /// `nonisolated`, as `Draft` is, so that under default main-actor isolation it still serves
    /// `SelectionRow.Columns`.
    static func declaration(access: String, type: String, properties: [TableProperty]) -> [String] {
        var lines = [
            "    \(access)nonisolated struct Columns: Cairn.QueryExpression {",
            "        \(access)typealias QueryValue = \(type)",
            "        \(access)let selectedExpressions: [Cairn.SQLExpression]",
            "        \(access)var sqlExpression: Cairn.SQLExpression {",
            "            Cairn.SQLExpression.selectionList(selectedExpressions)",
            "        }",
        ]
        let parameters = properties.map { property in
            "            \(property.name): some Cairn.QueryExpression<\(property.storedType)>"
                + (defaultArgument(property).map { " = \($0)" } ?? "")
        }
        if parameters.isEmpty {
            lines.append("        \(access)init() {")
        } else {
            lines.append("        \(access)init(")
            lines.append(parameters.joined(separator: ",\n"))
            lines.append("        ) {")
        }
        // `append(contentsOf:)`, not `+=`: the type checker would weigh every `+=` overload
        // (typed SQL declares some for updates) against each line.
        lines.append("            var selectedExpressions: [Cairn.SQLExpression] = []")
        for property in properties {
            lines.append("            selectedExpressions.append(contentsOf: \(property.name).selectedExpressions)")
        }
        lines.append("            self.selectedExpressions = selectedExpressions")
        lines.append("        }")
        lines.append("    }")
        return lines
    }

    /// What a left-out argument selects, as StructuredQueries defaults it: the property's
    /// default value in its stored type (`Date.UnixTimeRepresentation` takes a `Date`, a group
    /// its row), or `NULL` in each column of an optional property without one (as Swift's
    /// memberwise initializer defaults an optional `var` to `nil`). Through
    /// `Cairn._DefaultColumns`, since the macro cannot see whether the type is one column or a
    /// group, and a bare `nil` or group value would not be an expression.
    static func defaultArgument(_ property: TableProperty) -> String? {
        let value = "Cairn._DefaultColumns<\(property.storedType)>"
        switch property.initializer {
        case "nil": return "\(value).null"
        case let initializer?: return "\(value)(\(initializer))"
        case nil: return property.isOptional ? "\(value).null" : nil
        }
    }
}
