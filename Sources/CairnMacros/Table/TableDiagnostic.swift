import SwiftDiagnostics
import SwiftSyntax

/// A diagnostic from `@Table`, `@Selection` or `#sql`, with a stable identifier for tests.
struct TableDiagnostic: DiagnosticMessage, Error {
    let message: String
    let id: String
    let severity: DiagnosticSeverity

    init(_ id: String, _ message: String, severity: DiagnosticSeverity = .error) {
        self.id = id
        self.message = message
        self.severity = severity
    }

    var diagnosticID: MessageID { MessageID(domain: "Cairn.Table", id: id) }

    static func notAStruct(_ macro: String, kind: String) -> TableDiagnostic {
        TableDiagnostic("notAStruct", "@\(macro) can only be applied to a struct, not to \(kind)")
    }

    static func missingType(_ macro: String, _ name: String) -> TableDiagnostic {
        TableDiagnostic(
            "missingType",
            "@\(macro) cannot infer the column type of '\(name)' from its default value; "
                + "write the type (for example 'var \(name): Int = 0'), or mark it @Ephemeral")
    }

    static func unsupportedType(_ macro: String, _ name: String, type: String, reason: String) -> TableDiagnostic {
        TableDiagnostic(
            "unsupportedType",
            "@\(macro) cannot store '\(name)' of type '\(type)': \(reason) cannot be a column; "
                + "mark it @Ephemeral, or store it through @Column(as:) (for example a JSONRepresentation)")
    }

    static func selectionNameBesideTable(_ name: String) -> TableDiagnostic {
        TableDiagnostic(
            "selectionNameBesideTable",
            "beside @Table, the row is named by @Table: write @Table(\(name)) @Selection")
    }

    static func ephemeralWithoutDefault(_ name: String) -> TableDiagnostic {
        TableDiagnostic(
            "ephemeralWithoutDefault",
            "@Ephemeral property '\(name)' needs a default value: rows read from the database do not set it")
    }

    static func multiplePrimaryKeys(_ names: [String]) -> TableDiagnostic {
        TableDiagnostic(
            "multiplePrimaryKeys",
            "@Table supports one primary-key column; found \(names.map { "'\($0)'" }.joined(separator: ", "))")
    }

    static func multipleBindings() -> TableDiagnostic {
        TableDiagnostic("multipleBindings", "declare one column per 'var' or 'let' in a @Table or @Selection type")
    }

    static func unbalancedSQL(_ detail: String) -> TableDiagnostic {
        TableDiagnostic("unbalancedSQL", "#sql: \(detail)")
    }
}
