// The compile-time check `@DatabaseFunction` writes into `$name`: a function isolated to the
// main actor (`@MainActor`, or any function under default main-actor isolation that is not
// `nonisolated`) cannot run where SQLite calls it, so the macro says so by name instead of
// leaving only the compiler's error about a call in a nonisolated closure.

/// Expands to nothing: the probe `@DatabaseFunction` writes is not main-actor isolated.
@_documentation(visibility: private)
@freestanding(declaration)
public macro _DatabaseFunctionIsolationCheck(_ probe: () -> Void) =
    #externalMacro(module: "CairnMacros", type: "DatabaseFunctionIsolationCheckMacro")

/// Chosen for a main-actor isolated probe: fails the build, saying the function must be
/// `nonisolated`.
@_documentation(visibility: private)
@freestanding(declaration)
public macro _DatabaseFunctionIsolationCheck(_ probe: @MainActor () -> Void) =
    #externalMacro(module: "CairnMacros", type: "MainActorDatabaseFunctionCheckMacro")
