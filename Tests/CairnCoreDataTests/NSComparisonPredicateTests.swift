import CairnCoreData
import Testing

@Suite("NSComparisonPredicate and NSExpression")
struct NSComparisonPredicateTests {
    @Test func buildsTheSamePredicateAsTheFormat() {
        let predicate = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "name"),
            rightExpression: NSExpression(forConstantValue: "star"),
            modifier: .direct, type: .beginsWith, options: [.caseInsensitive])
        #expect(predicate.predicateFormat == "name BEGINSWITH[c] \"star\"")
        #expect(predicate == NSPredicate(format: "name BEGINSWITH[c] %@", "star"))
        #expect(expenses().filter(predicate.evaluate).compactMap { $0["id"] as? Int } == [3])

        let any = NSComparisonPredicate(
            leftExpression: NSExpression(format: "items.qty"), rightExpression: NSExpression(forConstantValue: 2),
            modifier: .any, type: .greaterThan)
        #expect(any.predicateFormat == "ANY items.qty > 2")
        #expect(expenses().filter(any.evaluate).compactMap { $0["id"] as? Int } == [4, 9, 10])
        #expect(any.comparisonPredicateModifier == .any && any.predicateOperatorType == .greaterThan)
    }

    @Test func rawValuesAreApples() {
        #expect(NSComparisonPredicate.Operator.contains.rawValue == 99)
        #expect(NSComparisonPredicate.Operator.between.rawValue == 100)
        #expect(NSComparisonPredicate.Operator.in.rawValue == 10)
        #expect(NSComparisonPredicate.Modifier.any.rawValue == 2)
        #expect(NSCompoundPredicate.LogicalType.or.rawValue == 2)
    }

    @Test func substitutionKeepsTheClassAndParts() throws {
        let template = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "amount"), rightExpression: NSExpression(forVariable: "MIN"),
            modifier: .direct, type: .greaterThanOrEqualTo)
        let filled = template.withSubstitutionVariables(["MIN": 100])
        #expect(filled.predicateOperatorType == .greaterThanOrEqualTo)
        #expect(filled.rightExpression.constantValue as? Int64 == 100)
        #expect(filled.evaluate(with: ["amount": 100]))
    }

    @Test func expressions() {
        #expect(NSExpression(format: "items.@sum.qty").expressionValue(with: expenses()[3], context: nil) as? Int64 == 6)
        #expect(NSExpression(forKeyPath: "owner.name").expressionType == .keyPath)
        #expect(NSExpression(forKeyPath: "owner.name").keyPath == "owner.name")
        #expect(NSExpression(forConstantValue: 5).expressionType == .constantValue)
        #expect(NSExpression.expressionForEvaluatedObject().expressionType == .evaluatedObject)
        let sum = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "items.price")])
        #expect(sum.description == "sum(items.price)")
        #expect(sum.expressionValue(with: expenses()[0], context: nil) as? Double == 4.5)
        #expect(NSExpression(forFunction: "frobnicate:", arguments: []).formatError?.code == .unsupported)
        #expect(NSExpression(format: "amount +").formatError?.offset == 8)
        #expect(NSExpression(forVariable: "X").variable == "X")
    }
}
