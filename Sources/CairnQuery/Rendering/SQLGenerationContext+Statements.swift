// Rendering of statements, clause by clause in SQL's order.

extension SQLGenerationContext {
    mutating func statement(_ statement: SQLStatement) throws {
        switch statement {
        case .select(let select): try self.select(select)
        case .insert(let insert): try self.insert(insert)
        case .update(let update): try self.update(update)
        case .delete(let delete): try self.delete(delete)
        case .fragment(let fragment): try self.fragment(fragment)
        }
    }

    // MARK: - SELECT

    mutating func select(_ select: SQLSelect) throws {
        if !select.commonTableExpressions.isEmpty {
            emit(select.isRecursive ? "WITH RECURSIVE " : "WITH ")
            try list(select.commonTableExpressions) { context, cte in
                try context.identifier(cte.name)
                if !cte.columns.isEmpty {
                    context.emit("(")
                    try context.identifiers(cte.columns)
                    context.emit(")")
                }
                context.emit(" AS (")
                try context.select(cte.select)
                context.emit(")")
            }
            emit(" ")
        }
        try selectCore(select)
        for compound in select.compounds {
            emit(" ")
            emit(text: compound.op.keyword)
            emit(" ")
            let member = compound.select
            if member.commonTableExpressions.isEmpty && member.compounds.isEmpty
                && member.ordering.isEmpty && member.limit == nil && member.offset == nil
            {
                try selectCore(member)
            } else {
                // A compound member cannot carry these clauses itself in SQLite.
                emit("SELECT * FROM (")
                try self.select(member)
                emit(")")
            }
        }
        if !select.ordering.isEmpty {
            emit(" ORDER BY ")
            try orderingTerms(select.ordering)
        }
        if select.limit != nil || select.offset != nil {
            let limit = try select.limit.map { limit in try capture { try $0.expression(limit) } }
            let offset = try select.offset.map { offset in try capture { try $0.expression(offset) } }
            emit(" ")
            emit(text: dialect.limitClause(limit: limit, offset: offset))
        }
    }

    /// `SELECT … FROM … JOIN … WHERE … GROUP BY … HAVING …`, without compounds or ordering.
    private mutating func selectCore(_ select: SQLSelect) throws {
        emit(select.isDistinct ? "SELECT DISTINCT " : "SELECT ")
        if select.columns.isEmpty {
            emit("*")
        } else {
            try resultColumns(select.columns)
        }
        if let from = select.from {
            emit(" FROM ")
            try source(from)
        } else if !select.joins.isEmpty {
            throw SQLRenderError(reason: .joinWithoutFrom)
        }
        for join in select.joins {
            emit(" ")
            emit(text: join.kind.keyword)
            emit(" ")
            try source(join.source)
            if let condition = join.condition {
                emit(" ON ")
                try expression(condition)
            }
        }
        if let condition = select.condition {
            emit(" WHERE ")
            try expression(condition)
        }
        if !select.groupBy.isEmpty {
            emit(" GROUP BY ")
            try list(select.groupBy) { try $0.expression($1) }
        }
        if let having = select.having {
            emit(" HAVING ")
            try expression(having)
        }
    }

    mutating func resultColumns(_ columns: [SQLSelectColumn]) throws {
        try list(columns) { context, column in
            try context.expression(column.expression)
            if let alias = column.alias {
                context.emit(" AS ")
                try context.identifier(alias)
            }
        }
    }

    private mutating func source(_ source: SQLTableSource) throws {
        let alias: String?
        switch source.kind {
        case let .table(name, schema, tableAlias):
            try qualifiedIdentifier(name, schema: schema)
            alias = tableAlias
        case let .subquery(select, subqueryAlias):
            emit("(")
            try self.select(select)
            emit(")")
            alias = subqueryAlias
        case let .function(_, call, functionAlias):
            try expression(call)
            alias = functionAlias
        }
        if let alias {
            emit(" AS ")
            try identifier(alias)
        }
    }

    mutating func orderingTerms(_ terms: [SQLOrderingTerm]) throws {
        try list(terms) { context, term in
            var key = term.expression
            if let collation = term.collation { key = key.collate(collation) }
            // Without an explicit order, NULLs sort as in SQLite (smallest): written out for
            // a dialect whose NULLs sort largest, unless the key has none.
            let nulls = term.nulls ?? (context.dialect.sortsNullsLargest && !term.keyIsNeverNull
                ? (term.direction == .ascending ? .first : .last) : nil)
            if let nulls, !context.dialect.supportsNullsOrdering {
                // Emulation: sort on "is NULL" first (true sorts after false when ascending).
                try context.expression(key.isNull())
                context.emit(nulls == .first ? " DESC, " : " ASC, ")
            }
            try context.expression(key)
            context.emit(term.direction == .ascending ? " ASC" : " DESC")
            if let nulls, context.dialect.supportsNullsOrdering {
                context.emit(nulls == .first ? " NULLS FIRST" : " NULLS LAST")
            }
        }
    }

    // MARK: - INSERT, UPDATE, DELETE

    mutating func insert(_ insert: SQLInsert) throws {
        emit("INSERT INTO ")
        try qualifiedIdentifier(insert.table, schema: insert.schema)
        if let alias = insert.alias {
            emit(" AS ")
            try identifier(alias)
        }
        if !insert.columns.isEmpty {
            emit(" (")
            try identifiers(insert.columns)
            emit(")")
        }
        switch insert.source {
        case .values(let rows):
            guard let width = insert.columns.isEmpty ? rows.first?.count : insert.columns.count,
                width > 0, !rows.isEmpty
            else { throw SQLRenderError(reason: .noRows(table: insert.table)) }
            emit(" VALUES ")
            // Room for every row's values at once: a 500-row INSERT otherwise doubles the
            // arguments a dozen times, copying them each time.
            arguments.reserveCapacity(arguments.count + rows.count * width)
            for (index, row) in rows.enumerated() {
                guard row.count == width else {
                    throw SQLRenderError(reason: .rowWidth(
                        table: insert.table, row: index, expected: width, actual: row.count))
                }
                if index > 0 { emit(", ") }
                emit("(")
                try list(row) { try $0.expression($1) }
                emit(")")
            }
        case .select(let select):
            emit(" ")
            try insertSelect(select, beforeUpsert: insert.upsert != nil)
        case .defaultValues:
            emit(" DEFAULT VALUES")
        }
        if let upsert = insert.upsert {
            try self.upsert(upsert, table: insert.table)
        }
        try returning(insert.returning, alias: insert.alias)
    }

    /// `INSERT … SELECT` followed by `ON CONFLICT` is ambiguous to SQLite's parser (is `ON` a
    /// join constraint?) unless the select ends in a clause; `WHERE 1` is the documented fix.
    private mutating func insertSelect(_ select: SQLSelect, beforeUpsert: Bool) throws {
        guard beforeUpsert else { return try self.select(select) }
        if select.compounds.isEmpty {
            try self.select(select.condition == nil ? select.where(.true) : select)
        } else {
            try self.select(SQLSelect([SQLSelectColumn](), from: .subquery(select)).where(.true))
        }
    }

    private mutating func upsert(_ upsert: SQLUpsert, table: String) throws {
        emit(" ON CONFLICT")
        if !upsert.target.isEmpty {
            emit(" (")
            try identifiers(upsert.target)
            emit(")")
            if let condition = upsert.targetCondition {
                emit(" WHERE ")
                try expression(condition)
            }
        }
        switch upsert.action {
        case .nothing:
            emit(" DO NOTHING")
        case let .update(assignments, condition):
            guard !assignments.isEmpty else {
                throw SQLRenderError(reason: .noUpsertAssignments(table: table))
            }
            if upsert.target.isEmpty { try dialect.checkUpdateWithoutConflictTarget() }
            emit(" DO UPDATE SET ")
            try self.assignments(assignments)
            if let condition {
                emit(" WHERE ")
                try expression(condition)
            }
        }
    }

    mutating func update(_ update: SQLUpdate) throws {
        guard !update.assignments.isEmpty else {
            throw SQLRenderError(reason: .noAssignments(table: update.table))
        }
        emit("UPDATE ")
        try qualifiedIdentifier(update.table, schema: update.schema)
        if let alias = update.alias {
            emit(" AS ")
            try identifier(alias)
        }
        emit(" SET ")
        try assignments(update.assignments)
        if let condition = update.condition {
            emit(" WHERE ")
            try expression(condition)
        }
        try returning(update.returning, alias: update.alias)
    }

    mutating func delete(_ delete: SQLDelete) throws {
        emit("DELETE FROM ")
        try qualifiedIdentifier(delete.table, schema: delete.schema)
        if let alias = delete.alias {
            emit(" AS ")
            try identifier(alias)
        }
        if let condition = delete.condition {
            emit(" WHERE ")
            try expression(condition)
        }
        try returning(delete.returning, alias: delete.alias)
    }

    private mutating func assignments(_ assignments: [SQLAssignment]) throws {
        try list(assignments) { context, assignment in
            try context.identifier(assignment.column)
            context.emit(" = ")
            try context.expression(assignment.value)
        }
    }

    private mutating func returning(_ columns: [SQLSelectColumn], alias: String?) throws {
        guard !columns.isEmpty else { return }
        emit(" RETURNING ")
        unqualifiedAlias = alias
        defer { unqualifiedAlias = nil }
        try resultColumns(columns)
    }
}

extension SQLCompoundOperator {
    var keyword: String {
        switch self {
        case .union: "UNION"
        case .unionAll: "UNION ALL"
        case .intersect: "INTERSECT"
        case .except: "EXCEPT"
        }
    }
}

extension SQLJoinKind {
    var keyword: String {
        switch self {
        case .inner: "JOIN"
        case .left: "LEFT JOIN"
        case .right: "RIGHT JOIN"
        case .full: "FULL JOIN"
        case .cross: "CROSS JOIN"
        }
    }
}
