import Foundation

// Expressions with no SQL translation when they depend on the row, which still work on
// captured values: `ids[0]`, `limits["max"] ?? 0`, `values.max()` are evaluated once in Swift
// and bound. Applied to the row, they throw `SwiftDataError.unsupportedPredicate` naming the
// construct. (`max()`/`min()` of an array attribute do translate.)

private func unsupported(_ type: any Any.Type) -> PredicateSQLError {
    .unsupported(PredicateDiagnostics.describe(type) + " applied to the fetched model")
}

extension PredicateExpressions.CollectionIndexSubscript: SQLPredicateExpression
where Wrapped: SQLPredicateExpression, Index: SQLPredicateExpression {
    static var isVariableFree: Bool { Wrapped.isVariableFree && Index.isVariableFree }
    static var mayTrap: Bool { Wrapped.mayTrap || Index.mayTrap }
    func collectShape(_ shape: inout PredicateShape) throws { throw unsupported(Self.self) }
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression { throw unsupported(Self.self) }
}

extension PredicateExpressions.CollectionRangeSubscript: SQLPredicateExpression
where Wrapped: SQLPredicateExpression, Range: SQLPredicateExpression {
    static var isVariableFree: Bool { Wrapped.isVariableFree && Range.isVariableFree }
    static var mayTrap: Bool { Wrapped.mayTrap || Range.mayTrap }
    func collectShape(_ shape: inout PredicateShape) throws { throw unsupported(Self.self) }
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression { throw unsupported(Self.self) }
}

extension PredicateExpressions.DictionaryKeySubscript: SQLPredicateExpression
where Wrapped: SQLPredicateExpression, Key: SQLPredicateExpression {
    static var isVariableFree: Bool { Wrapped.isVariableFree && Key.isVariableFree }
    static var mayTrap: Bool { Wrapped.mayTrap || Key.mayTrap }
    func collectShape(_ shape: inout PredicateShape) throws { throw unsupported(Self.self) }
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression { throw unsupported(Self.self) }
}

extension PredicateExpressions.DictionaryKeyDefaultValueSubscript: SQLPredicateExpression
where Wrapped: SQLPredicateExpression, Key: SQLPredicateExpression, Default: SQLPredicateExpression {
    static var isVariableFree: Bool { Wrapped.isVariableFree && Key.isVariableFree && Default.isVariableFree }
    static var mayTrap: Bool { Wrapped.mayTrap || Key.mayTrap || Default.mayTrap }
    func collectShape(_ shape: inout PredicateShape) throws { throw unsupported(Self.self) }
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression { throw unsupported(Self.self) }
}

extension PredicateExpressions.ForceCast: SQLPredicateExpression where Input: SQLPredicateExpression {
    static var isVariableFree: Bool { Input.isVariableFree }
    static var mayTrap: Bool { Input.mayTrap }
    func collectShape(_ shape: inout PredicateShape) throws { throw unsupported(Self.self) }
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression { throw unsupported(Self.self) }
}

extension PredicateExpressions.StringContainsRegex: SQLPredicateExpression
where Subject: SQLPredicateExpression, Regex: SQLPredicateExpression {
    static var isVariableFree: Bool { Subject.isVariableFree && Regex.isVariableFree }
    static var mayTrap: Bool { Subject.mayTrap || Regex.mayTrap }
    func collectShape(_ shape: inout PredicateShape) throws { throw unsupported(Self.self) }
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression { throw unsupported(Self.self) }
}

// MARK: - max() / min()

extension PredicateCompiler {
    /// `array.max()` of an array attribute: `(SELECT MAX(value) FROM json_each(x))`.
    mutating func extremum<E: SQLPredicateExpression>(_ elements: E, function: String, outputType: any Any.Type) throws
        -> CompiledExpression
    {
        let rows = try compile(elements)
        let kind = SQLValueKind.of(unwrappedType(outputType).base)
        guard case .scalar(let sql) = rows.form, E.Output.self is any _ArrayMarker.Type,
            kind == .integer || kind == .real || kind == .date
        else {
            throw PredicateSQLError.unsupported(
                "\(function.lowercased())() of a \(typeName(E.Output.self)) value (Cairn translates it for number and Date "
                    + "array attributes)")
        }
        let alias = makeAlias()
        let value = try jsonElementValue(alias: alias, elementType: outputType, construct: "\(function.lowercased())()")
        let body: SQLFragment = "(SELECT \(raw: function)(\(value)) FROM \(jsonElementRows(sql, alias: alias)))"
        return .scalar(.raw(body), outputType, mayRaise: rows.mayRaise)
    }
}

extension PredicateExpressions.SequenceMaximum: SQLPredicateExpression where Elements: SQLPredicateExpression {
    static var isVariableFree: Bool { Elements.isVariableFree }
    static var mayTrap: Bool { Elements.mayTrap }
    func collectShape(_ shape: inout PredicateShape) throws { try shape.visit(elements) }
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.extremum(elements, function: "MAX", outputType: Output.self)
    }
}

extension PredicateExpressions.SequenceMinimum: SQLPredicateExpression where Elements: SQLPredicateExpression {
    static var isVariableFree: Bool { Elements.isVariableFree }
    static var mayTrap: Bool { Elements.mayTrap }
    func collectShape(_ shape: inout PredicateShape) throws { try shape.visit(elements) }
    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.extremum(elements, function: "MIN", outputType: Output.self)
    }
}
