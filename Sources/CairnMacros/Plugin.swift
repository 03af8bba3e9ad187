// The plugin's entry point. The toolchain ships SwiftCompilerPluginMessageHandling, whose SPI
// has the message loop, so no swift-syntax package (and its SwiftCompilerPlugin module) is
// needed. A build against the swift-syntax package would replace only this file with
// `@main struct Plugin: CompilerPlugin { let providingMacros = CairnMacroRegistry.all }`.
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// Maps the type names in `#externalMacro(module: "CairnMacros", type: …)` to macro types.
struct CairnMacroProvider: PluginProvider {
    struct UnknownMacro: Error, CustomStringConvertible {
        let name: String
        var description: String {
            "CairnMacros has no macro type named '\(name)'; known: "
                + CairnMacroRegistry.all.keys.sorted().joined(separator: ", ")
        }
    }

    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        guard let macro = CairnMacroRegistry.all[typeName] else { throw UnknownMacro(name: typeName) }
        return macro
    }
}

@main
struct CairnMacrosPlugin {
    static func main() throws {
        let connection = try StandardIOMessageConnection()
        try CompilerPluginMessageListener(connection: connection, provider: CairnMacroProvider()).main()
    }
}
