import Cairn
import CairnCoreData
import CairnSQLite

/// `query --explain`: the SQL, its bound values, SQLite's plan, and an index to add when the
/// plan scans a table for a column the filter compares.
struct Explain {
    let query: EntityQuery

    func print(limit: Int?, offset: Int?, console: Console) throws {
        let sql = try query.rendered(limit: limit, offset: offset)
        var text = "sql:\n  \(sql.sql)\n"
        if !sql.arguments.isEmpty {
            text += "values:\n"
            for (index, value) in sql.arguments.enumerated() { text += "  ?\(index + 1) = \(Self.describe(value))\n" }
        }
        let plan = try query.store.db.fetchAll(sql: "EXPLAIN QUERY PLAN " + sql.sql, arguments: StatementArguments(sql.arguments)) {
            (id: try $0.decode(Int.self, at: 0), parent: try $0.decode(Int.self, at: 1), detail: try $0.decode(String.self, at: 3))
        }
        text += "plan:\n"
        var depth: [Int: Int] = [0: 0]
        for step in plan {
            let level = (depth[step.parent] ?? 0) + 1
            depth[step.id] = level
            text += String(repeating: "  ", count: level) + step.detail + "\n"
        }
        let suggestions = try self.suggestions(scans: plan.map(\.detail))
        if !suggestions.isEmpty { text += "suggestions:\n" + suggestions.map { "  - \($0)\n" }.joined() }
        console.out(text)
    }

    static func describe(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let int): String(int)
        case .real(let double): "\(double)"
        case .text(let text): Cell.jsonString(text)
        case .blob(let data): "<\(data.count) bytes>"
        }
    }

    /// For a full scan of the entity's table: each column the filter compares that no index
    /// starts with.
    func suggestions(scans details: [String]) throws -> [String] {
        let entity = query.entity
        guard details.contains(where: { $0 == "SCAN \(entity.table)" || $0.hasPrefix("SCAN \(entity.table) ") && !$0.contains("INDEX") }),
            let predicate = query.predicate
        else { return [] }
        let indexed = Set(try query.store.indexes(on: entity.table).compactMap(\.columns.first))
        var seen: Set<String> = []
        var result: [String] = []
        for key in Self.comparedKeys(predicate) {
            guard let attribute = entity.attribute(named: key), !indexed.contains(attribute.column),
                seen.insert(attribute.column).inserted
            else { continue }
            let advice: String =
                switch query.store.model.kind {
                case .apple: "mark '\(key)' Indexed in the model (a fetch index in Xcode, #Index in SwiftData); Core Data creates the index"
                case .cairn: "declare #Index<\(entity.name)>([\\.\(key)]) on the model; Cairn creates the index when the store opens"
                case .sqlite: "CREATE INDEX \"\(entity.table)_\(attribute.column)\" ON \"\(entity.table)\" (\"\(attribute.column)\")"
                }
            result.append("SQLite reads every row of \(entity.table) to test '\(key)', which no index covers: \(advice)")
        }
        return result
    }

    /// The keys of the entity itself (not behind a relationship) that comparisons test in a way
    /// an index on their column serves: equality, order, ranges, lists, and a prefix without
    /// [c]/[d] (a folded or CONTAINS test reads every value whatever the indexes).
    static func comparedKeys(_ predicate: FormatPredicate) -> [String] {
        switch predicate {
        case .constant: return []
        case .and(let operands), .or(let operands): return operands.flatMap(comparedKeys)
        case .not(let operand): return comparedKeys(operand)
        case .comparison(let comparison):
            let indexable: Set<FormatOperator> = [
                .equalTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between, .in, .beginsWith,
            ]
            guard indexable.contains(comparison.operatorType), comparison.options.isEmpty, comparison.modifier == .direct else { return [] }
            return [comparison.lhs, comparison.rhs].compactMap { expression in
                if case .keyPath(.evaluatedObject, let path) = expression, path.count == 1 { return path[0] }
                return nil
            }
        }
    }
}
