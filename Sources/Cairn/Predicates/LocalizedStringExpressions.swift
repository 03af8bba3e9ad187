import Foundation

// `localizedStandardContains`, `localizedCompare` and `caseInsensitiveCompare` inside
// `#Predicate`: Foundation provides them only on Apple platforms. The macro turns
// `$0.title.localizedStandardContains(text)` into
// `PredicateExpressions.build_localizedStandardContains(…)`, so these definitions make the
// seed's code compile and evaluate on Linux, in memory and in SQL.

extension PredicateExpressions {
    /// `string.localizedStandardContains(other)`: case- and diacritic-insensitive containment.
    ///
    /// ```swift
    /// #Predicate<Workout> { $0.title.localizedStandardContains("cafe") }   // matches "Café run"
    /// // WHERE cairn_localized_standard_contains("t0"."title", ?)
    /// ```
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The type the expression evaluates to.
        public typealias Output = Bool
        /// The expression for the string the method is called on.
        public let root: Root
        /// The expression for the method's argument.
        public let other: Other

        /// An expression calling the method on `root` with `other`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Evaluates the expression in memory, as Foundation's `Predicate.evaluate` does.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            PredicateFunctions.localizedStandardContains(String(try root.evaluate(bindings)), String(try other.evaluate(bindings)))
        }
    }

    /// `string.localizedCompare(other)`, a `ComparisonResult`.
    ///
    /// ```swift
    /// #Predicate<Workout> { $0.title.localizedCompare("M") == .orderedAscending }
    /// // WHERE cairn_localized_compare("t0"."title", ?) = ?
    /// ```
    public struct StringLocalizedCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The type the expression evaluates to.
        public typealias Output = ComparisonResult
        /// The expression for the string the method is called on.
        public let root: Root
        /// The expression for the method's argument.
        public let other: Other

        /// An expression calling the method on `root` with `other`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Evaluates the expression in memory, as Foundation's `Predicate.evaluate` does.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            PredicateFunctions.localizedCompare(String(try root.evaluate(bindings)), String(try other.evaluate(bindings)))
        }
    }

    /// `string.caseInsensitiveCompare(other)`, a `ComparisonResult`.
    ///
    /// ```swift
    /// #Predicate<Workout> { $0.title.caseInsensitiveCompare("run") == .orderedSame }
    /// // WHERE cairn_case_insensitive_compare("t0"."title", ?) = ?
    /// ```
    public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The type the expression evaluates to.
        public typealias Output = ComparisonResult
        /// The expression for the string the method is called on.
        public let root: Root
        /// The expression for the method's argument.
        public let other: Other

        /// An expression calling the method on `root` with `other`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Evaluates the expression in memory, as Foundation's `Predicate.evaluate` does.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            PredicateFunctions.caseInsensitiveCompare(String(try root.evaluate(bindings)), String(try other.evaluate(bindings)))
        }
    }

    /// What `#Predicate` calls for `a.localizedStandardContains(b)`.
    public static func build_localizedStandardContains<Root, Other>(
        _ root: Root, _ other: Other
    ) -> StringLocalizedStandardContains<Root, Other> {
        StringLocalizedStandardContains(root: root, other: other)
    }

    /// What `#Predicate` calls for `a.localizedCompare(b)`.
    public static func build_localizedCompare<Root, Other>(_ root: Root, _ other: Other) -> StringLocalizedCompare<Root, Other> {
        StringLocalizedCompare(root: root, other: other)
    }

    /// What `#Predicate` calls for `a.caseInsensitiveCompare(b)`.
    public static func build_caseInsensitiveCompare<Root, Other>(
        _ root: Root, _ other: Other
    ) -> StringCaseInsensitiveCompare<Root, Other> {
        StringCaseInsensitiveCompare(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedCompare: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedCompare: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringLocalizedCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

// MARK: - SQL

extension PredicateCompiler {
    mutating func stringFunction<Root: SQLPredicateExpression, Other: SQLPredicateExpression>(
        _ name: String, _ root: Root, _ other: Other, output: any Any.Type
    ) throws -> CompiledExpression {
        let left = try compile(root)
        let right = try compile(other)
        let sql = SQLExpression.function(name, try self.sql(left), try self.sql(right))
        return .scalar(sql, output, mayRaise: left.mayRaise || right.mayRaise)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where Root: SQLPredicateExpression, Other: SQLPredicateExpression {
    var operands: (Root, Other) { (root, other) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.stringFunction(PredicateFunctions.localizedStandardContainsName, root, other, output: Bool.self)
    }
}

extension PredicateExpressions.StringLocalizedCompare: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where Root: SQLPredicateExpression, Other: SQLPredicateExpression {
    var operands: (Root, Other) { (root, other) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.stringFunction(PredicateFunctions.localizedCompareName, root, other, output: ComparisonResult.self)
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where Root: SQLPredicateExpression, Other: SQLPredicateExpression {
    var operands: (Root, Other) { (root, other) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.stringFunction(PredicateFunctions.caseInsensitiveCompareName, root, other, output: ComparisonResult.self)
    }
}
