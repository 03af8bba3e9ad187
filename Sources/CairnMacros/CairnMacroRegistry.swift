import SwiftSyntaxMacros

/// Every macro this plugin provides, by the type name its `#externalMacro` declaration uses.
/// Tests expand with the same table, so a macro missing here fails its expansion test.
enum CairnMacroRegistry {
    // Computed: a stored global of metatypes of a non-Sendable protocol would be shared state.
    static var all: [String: any Macro.Type] {
        [
            "TransientMacro": TransientMacro.self,
            "ModelMacro": ModelMacro.self,
            "_PersistedPropertyMacro": _PersistedPropertyMacro.self,
            "AttributeMacro": AttributeMacro.self,
            "RelationshipMacro": RelationshipMacro.self,
            "UniqueMacro": UniqueMacro.self,
            "IndexMacro": IndexMacro.self,
            "TableMacro": TableMacro.self,
            "ColumnMacro": ColumnMacro.self,
            "EphemeralMacro": EphemeralMacro.self,
            "SelectionMacro": SelectionMacro.self,
            "SQLMacro": SQLMacro.self,
            "BindMacro": BindMacro.self,
            "DatabaseFunctionMacro": DatabaseFunctionMacro.self,
            "DatabaseFunctionIsolationCheckMacro": DatabaseFunctionIsolationCheckMacro.self,
            "MainActorDatabaseFunctionCheckMacro": MainActorDatabaseFunctionCheckMacro.self,
            "ModelActorMacro": ModelActorMacro.self,
            "QueryMacro": QueryMacro.self,
        ]
    }
}
