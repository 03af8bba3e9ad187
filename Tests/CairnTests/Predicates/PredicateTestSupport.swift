@testable import Cairn
import Foundation

enum Temper: String, Codable, Sendable, CaseIterable {
    case calm, happy, sad
}

/// A model with one attribute of every kind the predicate compiler handles.
@Model
final class Specimen {
    var name: String
    var nickname: String?
    var count: Int
    var score: Double
    var rank: Int?
    var flag: Bool
    var day: Date
    var due: Date?
    var mood: Temper
    var token: UUID
    var tags: [String] = []

    init(
        name: String, nickname: String?, count: Int, score: Double, rank: Int?, flag: Bool, day: Date, due: Date?,
        mood: Temper, token: UUID, tags: [String] = []
    ) {
        self.name = name
        self.nickname = nickname
        self.count = count
        self.score = score
        self.rank = rank
        self.flag = flag
        self.day = day
        self.due = due
        self.mood = mood
        self.token = token
        self.tags = tags
    }
}

/// An in-memory SQLite database holding one entity's table, filled from model objects with
/// the entity's own column encoding (until the context can store them).
final class PredicateStore<Model: PersistentModel> {
    let db: Database
    let entity = Schema.Entity.of(Model.self)
    let objects: [Model]

    init(_ objects: [Model]) throws {
        var configuration = Configuration()
        configuration.addCairnPredicateSupport()
        db = try Database.inMemory(configuration: configuration)
        self.objects = objects
        let columns = entity.storedAttributes.map { "\"\($0.columnName)\" \($0.columnType)" }
        try db.execute(sql: "CREATE TABLE \"\(entity.tableName)\" (\"id\" INTEGER PRIMARY KEY, \(columns.joined(separator: ", ")))")
        let names = entity.storedAttributes.map { "\"\($0.columnName)\"" }.joined(separator: ", ")
        let marks = entity.storedAttributes.map { _ in "?" }.joined(separator: ", ")
        for (index, object) in objects.enumerated() {
            var values: [DatabaseValue] = [.integer(Int64(index + 1))]
            for attribute in entity.storedAttributes {
                guard let keyPath = attribute.keypath, let value = object[keyPath: keyPath] else {
                    throw ModelError(.invalidSchema, message: "no value for \(attribute.name)")
                }
                values.append(try attribute.databaseValue(for: value))
            }
            try db.execute(
                sql: "INSERT INTO \"\(entity.tableName)\" (\"id\", \(names)) VALUES (?, \(marks))",
                arguments: StatementArguments(values))
        }
    }

    /// The rendered SQL of a descriptor (identifiers only).
    func sql(_ descriptor: FetchDescriptor<Model>) throws -> RenderedSQL {
        try QueryCompiler.render(descriptor, selecting: .identifiers, in: .sqlite)
    }

    /// The indexes (0-based) of the objects SQL returns, in SQL's order.
    func fetch(_ descriptor: FetchDescriptor<Model>) throws -> [Int] {
        let rendered = try sql(descriptor)
        return try db.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) {
            Int(try $0.decode(Int64.self, at: 0)) - 1
        }
    }

    /// The indexes Foundation's `filter` + `sorted(using:)` give.
    func expected(_ descriptor: FetchDescriptor<Model>) throws -> [Int] {
        var matching = objects
        if let predicate = descriptor.predicate {
            matching = try matching.filter { try predicate.evaluate($0) }
        }
        if !descriptor.sortBy.isEmpty {
            matching = matching.sorted(using: descriptor.sortBy)
        }
        let positions = Dictionary(uniqueKeysWithValues: objects.enumerated().map { (ObjectIdentifier($0.element), $0.offset) })
        var result = matching.compactMap { positions[ObjectIdentifier($0)] }
        if let offset = descriptor.fetchOffset { result = Array(result.dropFirst(offset)) }
        if let limit = descriptor.fetchLimit { result = Array(result.prefix(limit)) }
        return result
    }
}

let referenceDay = Date(timeIntervalSinceReferenceDate: 800_000_000.25)

func specimen(
    _ name: String, nickname: String? = nil, count: Int = 0, score: Double = 0, rank: Int? = nil, flag: Bool = false,
    day: Double = 0, due: Double? = nil, mood: Temper = .calm, token: Int = 0, tags: [String] = []
) -> Specimen {
    Specimen(
        name: name, nickname: nickname, count: count, score: score, rank: rank, flag: flag,
        day: referenceDay.addingTimeInterval(day), due: due.map { referenceDay.addingTimeInterval($0) }, mood: mood,
        token: tokens[token % tokens.count], tags: tags)
}

let tokens = [
    UUID(uuidString: "00000000-0000-0000-0000-0000000000A1"),
    UUID(uuidString: "7F000000-0000-0000-0000-000000000001"),
    UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
    UUID(uuidString: "10000000-0000-0000-0000-000000000000"),
].compactMap { $0 }

/// Foundation's answer to a descriptor over models in stored order: `filter`, then
/// `sorted(using:)` (stable), then the page.
func foundationAnswer<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, over models: [T]) throws -> [T] {
    var result = models
    if let predicate = descriptor.predicate { result = try result.filter { try predicate.evaluate($0) } }
    if !descriptor.sortBy.isEmpty { result = result.sorted(using: descriptor.sortBy) }
    result = Array(result.dropFirst(descriptor.fetchOffset ?? 0))
    if let limit = descriptor.fetchLimit { result = Array(result.prefix(limit)) }
    return result
}

/// Inserts the models in order (their stored order) and saves.
func savedInOrder<T: PersistentModel>(_ models: [T], in context: ModelContext) throws -> (ModelContext, [T]) {
    for model in models { context.insert(model) }
    try context.save()
    return (context, models)
}
