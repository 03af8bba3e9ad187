import SwiftSyntaxMacros

/// Every macro this plugin provides, by the type name its `#externalMacro` declaration uses.
/// Tests expand with the same table, so a macro missing here fails its expansion test.
enum CairnMacroRegistry {
    static let all: [String: any Macro.Type] = [
        "TransientMacro": TransientMacro.self,
    ]
}
