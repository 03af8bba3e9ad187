import Foundation

/// `text` as a double-quoted literal: quotes, backslashes and control characters escaped
/// (DEL too, as `\u007f`). Valid JSON, and the string form of an `NSPredicate` format: the
/// history's change documents, predicate-shape keys and `predicateFormat` all write it.
package func jsonStringLiteral(_ text: String) -> String {
    // Most text (entity and property names, keys) needs no escape: one scan of its bytes and
    // one concatenation, where the scalar-by-scalar copy below cost about 270 instructions a
    // character (callgrind, cairn-bench W13's history).
    if !needsEscape(text) { return "\"" + text + "\"" }
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += String(format: "\\u%04x", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}

/// Appends `text` as ``jsonStringLiteral(_:)`` writes it, as UTF-8, to a document being built
/// in bytes (the history's change documents).
func appendJSONStringLiteral(_ text: String, to bytes: inout [UInt8]) {
    if needsEscape(text) {
        bytes.append(contentsOf: jsonStringLiteral(text).utf8)
        return
    }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(contentsOf: text.utf8)
    bytes.append(UInt8(ascii: "\""))
}

private func needsEscape(_ text: String) -> Bool {
    text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F }
}
