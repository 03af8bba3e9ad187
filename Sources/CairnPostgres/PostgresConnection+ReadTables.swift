import CairnSQLite
import Foundation

extension PostgresConnection {
    /// The tables a query reads, as the server's planner reports them: every relation its
    /// plan scans, through joins, subqueries, common table expressions and views (a view's
    /// tables, not the view). It is what a live query watches for changes.
    ///
    /// ```swift
    /// let tables = try connection.readTables(
    ///     sql: #"SELECT title FROM "reminders" WHERE "listID" IN (SELECT id FROM "lists")"#)
    /// // ["reminders", "lists"]  (from EXPLAIN (FORMAT JSON) SELECT …)
    /// ```
    ///
    /// The statement is planned, not run. A table the planner proves it need not read (a
    /// `LEFT JOIN` it removes, a condition that is constant false) is not reported: changes to
    /// it cannot change the result.
    ///
    /// - Throws: ``PostgresError`` when the statement does not plan (a syntax error, a table
    ///   that does not exist), or when the plan is not the JSON the server documents.
    public func readTables(sql: String, arguments: StatementArguments = []) throws -> Set<String> {
        let explain = "EXPLAIN (FORMAT JSON) " + sql
        let rows = try fetchAll(sql: explain, arguments: arguments).rows
        guard case .text(let plan)? = rows.first?.first,
              let json = try? JSONSerialization.jsonObject(with: Data(plan.utf8)) else {
            throw PostgresError(message: "the server's plan is not JSON", sql: explain, arguments: arguments)
        }
        var tables = Set<String>()
        collectRelations(in: json, into: &tables)
        return tables
    }

    /// Walks a JSON plan for its nodes' `"Relation Name"` entries.
    private func collectRelations(in node: Any, into tables: inout Set<String>) {
        if let object = node as? [String: Any] {
            if let name = object["Relation Name"] as? String { tables.insert(name) }
            for value in object.values { collectRelations(in: value, into: &tables) }
        } else if let array = node as? [Any] {
            for value in array { collectRelations(in: value, into: &tables) }
        }
    }
}
