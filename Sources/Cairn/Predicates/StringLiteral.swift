import Foundation

/// `text` as a double-quoted literal: quotes, backslashes and control characters escaped
/// (DEL too, as `\u007f`). Valid JSON, and the string form of an `NSPredicate` format: the
/// history's change documents, predicate-shape keys and `predicateFormat` all write it.
package func jsonStringLiteral(_ text: String) -> String {
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
