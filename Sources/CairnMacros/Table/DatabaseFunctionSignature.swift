import SwiftSyntax

/// What `@DatabaseFunction` reads from the declaration and its `as:` argument: the values SQL
/// passes in (one list per row for an aggregate), their representations and the result's.
struct DatabaseFunctionSignature {
    /// One SQL argument.
    struct Input {
        /// The label of `$name(…)`'s argument (`_` for none).
        var label: String
        /// The Swift parameter's name (empty for an unnamed tuple element), for error messages.
        var name: String
        /// The Swift type the function receives.
        var swiftType: String
        /// The `QueryBindable` type SQL passes (a representation or the Swift type).
        var representation: String
        /// The function parameter's default value, rewritten for its representation.
        var defaultValue: String?
    }

    var inputs: [Input]
    /// The result as SQL sees it (`Cairn.DatabaseVoid` for a function returning nothing).
    var output: String
    /// Set for an aggregate: the sequence parameter's label and element type as declared.
    var aggregate: (label: String, element: String, isLabeledTuple: Bool)?

    /// The parameter and result types written in an `as:` argument: `((A, B) -> R).self`,
    /// `((any Sequence<(A, B)>) -> R).self`, or `R.self` for a computed property.
    static func representation(of expression: ExprSyntax) -> (inputs: [String]?, output: String)? {
        var text = expression.trimmedDescription
        guard text.hasSuffix(".self") else { return nil }
        text = String(text.dropLast(".self".count)).trimmingSpaces()
        guard let inner = unparenthesized(text) else { return (nil, text) }
        let parts = split(inner, by: "->")
        guard parts.count == 2, var parameters = unparenthesized(parts[0]) else { return nil }
        if let element = sequenceElement(parameters) { parameters = unparenthesized(element) ?? element }
        let inputs = parameters.isEmpty ? [] : split(parameters, by: ",")
        return (inputs, parts[1])
    }

    /// `X` for `some Sequence<X>` / `any Sequence<X>` (also `Swift.Sequence`), else nil.
    static func sequenceElement(_ type: String) -> String? {
        for prefix in ["some ", "any "] where type.hasPrefix(prefix) {
            let constraint = String(type.dropFirst(prefix.count)).trimmingSpaces()
            for name in ["Sequence<", "Swift.Sequence<"] where constraint.hasPrefix(name) && constraint.hasSuffix(">") {
                return String(constraint.dropFirst(name.count).dropLast()).trimmingSpaces()
            }
        }
        return nil
    }

    /// The text inside one pair of parentheses that spans all of `text`, or nil.
    static func unparenthesized(_ text: String) -> String? {
        let text = text.trimmingSpaces()
        guard text.first == "(", text.last == ")" else { return nil }
        var depth = 0
        var previous: Character = " "
        for (offset, character) in text.enumerated() {
            defer { previous = character }
            if "(<[".contains(character) { depth += 1 }
            // The `>` of an arrow closes nothing.
            if ")]".contains(character) || (character == ">" && previous != "-") { depth -= 1 }
            if depth == 0 && offset < text.count - 1 { return nil }
        }
        return String(text.dropFirst().dropLast()).trimmingSpaces()
    }

    /// Splits at `separator` outside brackets (`->` is not a closing `>`).
    static func split(_ text: String, by separator: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var rest = Substring(text)
        while let character = rest.first {
            if depth == 0 && rest.hasPrefix(separator) {
                parts.append(current.trimmingSpaces())
                current = ""
                rest = rest.dropFirst(separator.count)
                continue
            }
            if rest.hasPrefix("->") {
                current += "->"
                rest = rest.dropFirst(2)
                continue
            }
            if "(<[".contains(character) { depth += 1 }
            if ")>]".contains(character) { depth -= 1 }
            current.append(character)
            rest = rest.dropFirst()
        }
        parts.append(current.trimmingSpaces())
        return parts
    }

    /// A tuple type's elements as (label, type); a type that is no tuple is one unlabeled element.
    static func tupleElements(_ type: String) -> [(label: String?, type: String)] {
        guard let inner = unparenthesized(type), !inner.isEmpty else { return [(nil, type)] }
        let elements = split(inner, by: ",")
        guard elements.count > 1 else { return [(nil, type)] }
        return elements.map { element in
            let pieces = split(element, by: ":")
            if pieces.count == 2, !pieces[0].contains(" ") { return (pieces[0], pieces[1]) }
            return (nil, element)
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
