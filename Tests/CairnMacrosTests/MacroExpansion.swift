@testable import CairnMacros
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

/// Expands Cairn's macros in a source text, as the compiler would, with the toolchain's
/// SwiftSyntaxMacroExpansion (the toolchain has no SwiftSyntaxMacrosTestSupport).
enum MacroExpansion {
    /// The conformances the compiler passes to extension macros, by macro name.
    static let conformances: [String: [TypeSyntax]] = [
        "Model": ["PersistentModel", "Observable", "Hashable", "Table"],
        "ModelActor": ["ModelActor"],
    ]

    /// Every registered macro under the name it is written with: `ModelMacro` → `Model`.
    static var specs: [String: MacroSpec] { specs(conformances: conformances) }

    /// The specs with the given conformances asked of extension macros (a subclass of a model
    /// already has the model's, and is asked for none).
    static func specs(conformances: [String: [TypeSyntax]]) -> [String: MacroSpec] {
        var specs: [String: MacroSpec] = [:]
        for (typeName, type) in CairnMacroRegistry.all {
            let name = typeName.hasSuffix("Macro") ? String(typeName.dropLast(5)) : typeName
            specs[name] = MacroSpec(type: type, conformances: conformances[name] ?? [])
        }
        return specs
    }

    struct Result {
        let expanded: String
        /// `line:column: message` for each diagnostic.
        let diagnostics: [String]
    }

    static func expand(_ source: String, conformances: [String: [TypeSyntax]] = conformances) -> Result {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(
            sourceFiles: [file: .init(moduleName: "TestModule", fullFilePath: "Test.swift")])
        // Each expansion sees its lexical context (the enclosing type, attributes included), as
        // in the compiler; diagnostics are collected in the shared `context`.
        let expanded = file.expand(
            macroSpecs: specs(conformances: conformances),
            contextGenerator: { node in
                BasicMacroExpansionContext(sharingWith: context, lexicalContext: node.allMacroLexicalContexts())
            },
            indentationWidth: .spaces(4))
        let converter = SourceLocationConverter(fileName: "Test.swift", tree: file)
        let diagnostics = context.diagnostics.map { diagnostic in
            let location = diagnostic.location(converter: converter)
            return "\(location.line):\(location.column): \(diagnostic.message)"
        }
        return Result(expanded: expanded.description, diagnostics: diagnostics)
    }
}

/// Checks that `source` expands to `expected` (compared line by line, ignoring trailing
/// whitespace) with exactly `diagnostics`.
func assertMacroExpansion(
    _ source: String, expandedSource expected: String, diagnostics: [String] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let result = MacroExpansion.expand(source)
    let normalize = { (text: String) in
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
            .joined(separator: "\n").trimmingCharacters(in: "\n")
    }
    let actual = normalize(result.expanded)
    let wanted = normalize(expected)
    if actual != wanted {
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let wantedLines = wanted.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(actualLines, wantedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actualLines.count, wantedLines.count)
        Issue.record(
            """
            Expansion differs at line \(first + 1).
            --- expected
            \(wanted)
            --- actual
            \(actual)
            """, sourceLocation: sourceLocation)
    }
    #expect(result.diagnostics == diagnostics, sourceLocation: sourceLocation)
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}

/// Checks that the expansion of `source` contains each snippet (compared after collapsing
/// runs of whitespace) and has exactly `diagnostics`.
func assertExpansionContains(
    _ source: String, _ snippets: [String], diagnostics: [String] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let result = MacroExpansion.expand(source)
    let collapse = { (text: String) in text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }
    let expanded = collapse(result.expanded)
    for snippet in snippets where !expanded.contains(collapse(snippet)) {
        Issue.record("Expansion lacks:\n\(snippet)\n--- expansion\n\(result.expanded)", sourceLocation: sourceLocation)
    }
    #expect(result.diagnostics == diagnostics, sourceLocation: sourceLocation)
}

/// Checks that the expansion of `source` contains none of the snippets.
func assertExpansionLacks(
    _ source: String, _ snippets: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let result = MacroExpansion.expand(source)
    let collapse = { (text: String) in text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }
    let expanded = collapse(result.expanded)
    for snippet in snippets where expanded.contains(collapse(snippet)) {
        Issue.record("Expansion should not contain:\n\(snippet)\n--- expansion\n\(result.expanded)", sourceLocation: sourceLocation)
    }
}
