import SwiftDiagnostics
import SwiftSyntax

/// A diagnostic from one of Cairn's model macros, with a stable identifier for tests.
struct ModelDiagnostic: DiagnosticMessage, Error {
    let message: String
    let id: String
    let severity: DiagnosticSeverity

    init(_ id: String, _ message: String, severity: DiagnosticSeverity = .error) {
        self.id = id
        self.message = message
        self.severity = severity
    }

    var diagnosticID: MessageID { MessageID(domain: "Cairn.Model", id: id) }

    static func notAClass(_ kind: String) -> ModelDiagnostic {
        ModelDiagnostic("notAClass", "@Model can only be applied to a class, not to \(kind)")
    }

    static func missingType(_ name: String) -> ModelDiagnostic {
        ModelDiagnostic(
            "missingType",
            "@Model property '\(name)' needs an explicit type (for example 'var \(name): Int = 0'); "
                + "or mark it @Transient")
    }

    static func unsupportedType(_ name: String, type: String, reason: String) -> ModelDiagnostic {
        ModelDiagnostic(
            "unsupportedType",
            "@Model cannot store property '\(name)' of type '\(type)': \(reason) cannot be stored; "
                + "mark it @Transient or use a Codable type")
    }

    static func letProperty(_ name: String) -> ModelDiagnostic {
        ModelDiagnostic(
            "letProperty",
            "@Model stores 'var' properties; declare '\(name)' with 'var', or mark it @Transient "
                + "with a default value")
    }

    static func observers(_ name: String) -> ModelDiagnostic {
        ModelDiagnostic(
            "propertyObservers",
            "@Model property '\(name)' cannot have willSet/didSet observers; observe it with "
                + "withObservationTracking, or mark it @Transient")
    }

    static func isolatedProperty(_ name: String) -> ModelDiagnostic {
        ModelDiagnostic(
            "isolatedProperty",
            "@Model property '\(name)' of a @MainActor class must be 'nonisolated' ('nonisolated var \(name)'): "
                + "the model's context reads and writes it, and #Predicate, SortDescriptor and the schema "
                + "need its key path, which Swift forms only for a nonisolated property; or mark it @Transient")
    }

    static func notASubclass(_ first: String) -> ModelDiagnostic {
        ModelDiagnostic(
            "notASubclass",
            "@Model reads '\(first)', the first type this class inherits from, as a model class it extends, "
                + "but it is not one; if it is a protocol, list PersistentModel first ('PersistentModel, \(first)')")
    }

    static func multipleBindings() -> ModelDiagnostic {
        ModelDiagnostic("multipleBindings", "@Model needs one stored property per 'var' declaration")
    }

    static func missingModelType(_ macro: String) -> ModelDiagnostic {
        ModelDiagnostic(
            "missingModelType", "#\(macro) needs its model type: write #\(macro)<Model>([\\.property])")
    }
}
