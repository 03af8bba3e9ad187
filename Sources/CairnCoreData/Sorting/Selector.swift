#if !canImport(ObjectiveC)
/// A method name, as Objective-C's `Selector`, which Foundation on Linux does not have.
/// Cairn uses it for `NSSortDescriptor(key:ascending:selector:)`.
///
/// `#selector(NSString.localizedStandardCompare(_:))` needs the Objective-C runtime, so on
/// Linux write the selector's name:
///
/// ```swift
/// NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))
/// NSSortDescriptor(key: "name", ascending: true, selector: "localizedStandardCompare:")
/// ```
public struct Selector: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The selector's name, colons included (`"localizedStandardCompare:"`).
    public let name: String

    /// The selector named `name`, as Objective-C's `Selector("…")` makes one.
    ///
    /// - Parameter name: The method name, colons included (`"caseInsensitiveCompare:"`).
    public init(_ name: String) { self.name = name }
    /// The selector a string literal names, so a sort descriptor can take
    /// `selector: "localizedCompare:"`.
    ///
    /// - Parameter name: The method name, colons included.
    public init(stringLiteral name: String) { self.name = name }

    public var description: String { name }
}

/// The name of a selector (`NSStringFromSelector`).
public func NSStringFromSelector(_ selector: Selector) -> String { selector.name }

/// The selector with a name (`NSSelectorFromString`).
public func NSSelectorFromString(_ name: String) -> Selector { Selector(name) }
#endif
