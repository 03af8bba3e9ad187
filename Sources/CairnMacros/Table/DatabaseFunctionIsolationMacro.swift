import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `#_DatabaseFunctionIsolationCheck(probe)` for a probe that is not main-actor isolated:
/// nothing to say. `@DatabaseFunction` writes the probe beside the function with the function's
/// isolation, and overload resolution picks this macro or ``MainActorDatabaseFunctionCheckMacro``.
public struct DatabaseFunctionIsolationCheckMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// The check's overload for a main-actor isolated probe: SQLite calls a function on the thread
/// that runs the statement, never on the main actor, so the function must be `nonisolated`.
public struct MainActorDatabaseFunctionCheckMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        context.diagnose(Diagnostic(node: node, message: TableDiagnostic(
            "databaseFunctionMainActor",
            "a @DatabaseFunction must be 'nonisolated': SQLite calls it on the thread that runs the statement, "
                + "not on the main actor (under default main-actor isolation, write 'nonisolated func')")))
        return []
    }
}
