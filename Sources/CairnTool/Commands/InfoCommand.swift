/// `cairn info STORE`: the kind of store, its entities, their keys, rows and indexes.
enum InfoCommand {
    static let spec = CommandSpec(
        name: "info", positionals: ["STORE"],
        summary: "what kind of store it is, its entities with attributes, relationships, row counts and indexes",
        options: [.model],
        details: "example: cairn info App.sqlite --model App.xcdatamodeld")

    static func run(_ arguments: ParsedArguments, console: Console) throws {
        let store = try StoreFile(path: arguments.positionals[0], modelPath: arguments.values["model"])
        let model = store.model
        var text = "\(store.path): \(model.kind.rawValue)\n"
        text += "names from: \(model.namesSource)\n"
        for fact in model.facts { text += "\(fact.label): \(fact.value)\n" }
        for entity in model.entities {
            text += "\n" + (try heading(entity, store: store)) + "\n"
            if !entity.attributes.isEmpty {
                text += "  attributes:\n"
                let width = (entity.attributes.map(\.name.count).max() ?? 0) + 2
                for attribute in entity.attributes {
                    text += "    " + attribute.name.padding(toLength: width, withPad: " ", startingAt: 0)
                        + attribute.type.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0) + attribute.column + "\n"
                }
            }
            if !entity.relationships.isEmpty {
                text += "  relationships:\n"
                let width = (entity.relationships.map(\.name.count).max() ?? 0) + 2
                for relationship in entity.relationships {
                    text += "    " + relationship.name.padding(toLength: width, withPad: " ", startingAt: 0)
                        + describe(relationship, in: entity) + "\n"
                }
            }
            if entity.parent == nil {
                let indexes = try store.indexes(on: entity.table)
                if !indexes.isEmpty {
                    text += "  indexes:\n"
                    for index in indexes {
                        text += "    \(index.name) (\(index.columns.joined(separator: ", ")))\(index.unique ? " unique" : "")\n"
                    }
                }
            }
        }
        if !model.notes.isEmpty {
            text += "\nnotes:\n" + model.notes.map { "  - \($0)\n" }.joined()
        }
        console.out(text)
    }

    /// `Book (table ZBOOK, Z_ENT 1, 52 rows; sub-entities: GraphicNovel)`.
    static func heading(_ entity: StoreEntity, store: StoreFile) throws -> String {
        var parts = ["table \(entity.table)"]
        if let number = entity.entityNumber { parts.append("Z_ENT \(number)") }
        if let parent = entity.parent { parts.append("sub-entity of \(parent)") }
        let count = try store.rowCount(entity)
        parts.append("\(count) \(count == 1 ? "row" : "rows")")
        let children = store.model.entities.filter { $0.parent == entity.name }.map(\.name)
        var line = "\(entity.name) (\(parts.joined(separator: ", "))"
        if !children.isEmpty { line += "; sub-entities: \(children.joined(separator: ", "))" }
        return line + ")"
    }

    /// `to-one  → Writer  column ZAUTHOR, inverse books`.
    static func describe(_ relationship: StoreRelationship, in entity: StoreEntity) -> String {
        var text = (relationship.isToMany ? "to-many" : "to-one ") + " → " + relationship.destination
        switch relationship.storage {
        case .foreignKey(let column): text += "  column \(entity.table).\(column)"
        case .inverseForeignKey(let column): text += "  column \(column) of the destination"
        case .joinTable(let table, let source, let destination): text += "  join table \(table) (\(source) → \(destination))"
        }
        if let inverse = relationship.inverse { text += ", inverse \(inverse)" }
        return text
    }
}
