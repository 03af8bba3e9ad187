import Cairn
import CairnCoreData
import CairnSQLite
import Foundation

/// A `SELECT` over one entity built from the command line: keys to show, a format-predicate
/// filter, a sort, a page; compiled by Cairn's format-predicate compiler, values bound.
struct EntityQuery {
    /// One output column: its name, its SQL, and how its values print.
    struct Column {
        let name: String
        let expression: SQLExpression
        let type: ValueType
    }

    let store: StoreFile
    private(set) var entity: StoreEntity
    let formatEntity: FormatSQLEntity
    var columns: [Column] = []
    var predicate: FormatPredicate?
    var select: SQLSelect

    init(store: StoreFile, entityName: String) throws(ToolError) {
        self.store = store
        entity = try store.model.entity(named: entityName)
        formatEntity = store.model.formatEntity(entity)
        select = SQLSelect(from: .table(entity.table))
        select.condition = formatEntity.rowCondition(alias: entity.table)
    }

    var alias: String { entity.table }

    /// `--types startedAt=date,isFavorite=bool`: how attributes print and compare, for stores
    /// that do not record it (a SQLite file; a Cairn store written before it recorded its schema,
    /// whose dates are REAL and Bools INTEGER columns).
    /// Applies before the keys are chosen.
    mutating func setTypes(_ list: String) throws(ToolError) {
        for pair in list.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let type = ValueType(rawValue: parts[1]) else {
                throw ToolError.usage(
                    "--types takes key=type pairs such as startedAt=date; types: "
                        + ["integer", "double", "decimal", "string", "bool", "date", "binary", "uuid"].joined(separator: ", "))
            }
            guard let index = entity.attributes.firstIndex(where: { $0.name == parts[0] }) else {
                throw ToolError.usage("--types: \(entity.name) has no attribute '\(parts[0])'; its attributes: "
                    + entity.attributes.map(\.name).joined(separator: ", "))
            }
            let attribute = entity.attributes[index]
            entity.attributes[index] = StoreAttribute(name: attribute.name, column: attribute.column, type: type)
        }
    }

    /// The default keys: the primary key, every attribute, every to-one relationship (as the
    /// related row's key), and for an entity with sub-entities which one each row is.
    mutating func selectDefaultKeys() {
        columns = [Column(name: entity.primaryKey, expression: .column(entity.primaryKey, table: alias), type: .integer)]
        if store.model.entities.contains(where: { $0.parent == entity.name }), !entity.keys.contains("entity") {
            var branches: [(SQLExpression, SQLExpression)] = []
            for candidate in store.model.entities {
                guard let number = candidate.entityNumber, candidate.table == entity.table else { continue }
                branches.append((.value(.integer(number)), .value(.text(candidate.name))))
            }
            let name = SQLExpression.case(.column("Z_ENT", table: alias), when: branches)
            columns.append(Column(name: "entity", expression: name, type: .string))
        }
        for attribute in entity.attributes {
            columns.append(Column(name: attribute.name, expression: .column(attribute.column, table: alias), type: attribute.type))
        }
        for relationship in entity.relationships {
            guard case .foreignKey(let column) = relationship.storage else { continue }
            columns.append(Column(name: relationship.name, expression: .column(column, table: alias), type: .integer))
        }
    }

    /// `--keys a,b.c,tags.@count`: each a key path or expression over the entity.
    mutating func selectKeys(_ list: String) throws(ToolError) {
        columns = []
        for key in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !key.isEmpty {
            if key == entity.primaryKey {
                columns.append(Column(name: key, expression: .column(key, table: alias), type: .integer))
                continue
            }
            do {
                var expression = try FormatPredicateParser.parseExpression(key)
                if store.model.keysFromColumns { expression = KeyCasing(model: store.model).expression(expression, in: entity) }
                let sql = try expression.sqlExpression(for: formatEntity, tableAlias: alias)
                columns.append(Column(name: key, expression: sql, type: type(of: expression)))
            } catch {
                throw ToolError.usage("in --keys '\(key)': \(error.description)")
            }
        }
        guard !columns.isEmpty else { throw ToolError.usage("--keys names no key; valid keys: \(formatEntity.validKeys.joined(separator: ", "))") }
    }

    /// The type of a key path's last attribute, through to-one relationships.
    func type(of expression: FormatExpression) -> ValueType {
        guard case .keyPath(.evaluatedObject, let path) = expression else { return .unknown }
        var current = entity
        for (index, key) in path.enumerated() {
            if index == path.count - 1 {
                if let attribute = current.attribute(named: key) { return attribute.type }
                // A to-one relationship reads as the related row's key.
                return current.relationship(named: key).map { $0.isToMany ? .unknown : .integer } ?? .unknown
            }
            guard let relationship = current.relationship(named: key), !relationship.isToMany,
                let next = store.model.entities.first(where: { $0.name == relationship.destination })
            else { return .unknown }
            current = next
        }
        return .unknown
    }

    /// `--where FORMAT`: parsed, its date strings read as dates, compiled against the entity.
    mutating func filter(_ format: String) throws(ToolError) {
        do {
            var parsed = try FormatPredicateParser.parse(format)
            if store.model.keysFromColumns { parsed = KeyCasing(model: store.model).predicate(parsed, in: entity) }
            let predicate = TypedLiterals(query: self).rewrite(parsed)
            self.predicate = predicate
            let condition = try predicate.sqlCondition(for: formatEntity, tableAlias: alias)
            select.condition = select.condition.map { $0.and(condition) } ?? condition
        } catch {
            throw ToolError.usage("in --where: \(error.description)")
        }
    }

    /// `--sort KEY,-KEY`: ascending, or descending with a leading `-`; the primary key last, so
    /// pages are stable.
    mutating func sort(_ list: String?) throws(ToolError) {
        var terms: [SQLOrderingTerm] = []
        for var key in (list ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !key.isEmpty {
            let ascending = !key.hasPrefix("-")
            if key.hasPrefix("-") || key.hasPrefix("+") { key.removeFirst() }
            if store.model.keysFromColumns {
                key = KeyCasing(model: store.model).path(key.split(separator: ".").map(String.init), from: entity).joined(separator: ".")
            }
            if key == entity.primaryKey {
                let column = SQLExpression.column(key, table: alias)
                terms.append(ascending ? column.ascending() : column.descending())
                continue
            }
            do {
                terms.append(try FormatSortDescriptor(key: key, ascending: ascending).sqlOrderingTerm(for: formatEntity, tableAlias: alias))
            } catch {
                throw ToolError.usage("in --sort '\(key)': \(error.description)")
            }
        }
        terms.append(SQLExpression.column(entity.primaryKey, table: alias).ascending())
        var sorted = select
        for term in terms { sorted = sorted.orderBy(term) }
        select = sorted
    }

    /// The statement with its columns, rendered.
    func rendered(limit: Int?, offset: Int?) throws -> RenderedSQL {
        var statement = select.select(columns.map { SQLSelectColumn($0.expression, as: $0.name) })
        if let limit { statement = statement.limit(limit) }
        if let offset { statement = statement.offset(offset) }
        return try statement.render()
    }

    /// Runs the statement and hands each row's cells to `body`.
    func run(limit: Int?, offset: Int?, _ body: ([Cell]) throws -> Void) throws {
        let sql = try rendered(limit: limit, offset: offset)
        let cursor = try store.db.fetchCursor(sql: sql.sql, arguments: StatementArguments(sql.arguments))
        defer { cursor.close() }
        let types = columns.map(\.type)
        while let row = try cursor.next() {
            try body(types.indices.map { Cell(row.databaseValue(at: $0), type: types[$0]) })
        }
    }
}
