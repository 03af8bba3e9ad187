import CairnSQLite
import Foundation
import Testing

@testable import CairnTool

@Suite("Store reader on Apple-written stores")
struct StoreReaderTests {
    @Test("every fixture store reads as a Core Data store with Z_PRIMARYKEY's entities and their row counts", arguments: Fixtures.allStores)
    func everyStore(path: String) throws {
        let store = try StoreFile(path: path)
        #expect(store.kind == .apple)
        let db = try Fixtures.open(path)
        let names = try db.fetchAll(sql: "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT") {
            try $0.decode(String.self, at: 0)
        }
        #expect(store.model.entities.map(\.name) == names)
        for entity in store.model.entities {
            // Each entity's rows: its own Z_ENT and its sub-entities', counted by SQLite directly.
            let family = try db.fetchAll(sql: """
                WITH RECURSIVE family(ent) AS (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = ?
                    UNION SELECT p.Z_ENT FROM Z_PRIMARYKEY p JOIN family f ON p.Z_SUPER = f.ent)
                SELECT ent FROM family
                """, arguments: [entity.name]) { try $0.decode(Int64.self, at: 0) }
            let list = family.map(String.init).joined(separator: ",")
            let expected = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(entity.table) WHERE Z_ENT IN (\(list))") ?? -1
            #expect(try store.rowCount(entity) == expected, "\(entity.name) in \(path)")
        }
    }

    @Test("sub-entities share their root's table and are restricted to their own Z_ENT values")
    func subEntities() throws {
        let model = try StoreFile(path: Fixtures.sampleModel, modelPath: Fixtures.sampleModelContents).model
        let car = try model.entity(named: "Car"), sport = try model.entity(named: "SportCar")
        let expensive = try model.entity(named: "ExpensiveSportCar")
        #expect(car.rowRestriction == nil)
        #expect(sport.rowRestriction?.values == [2, 3])
        #expect(expensive.rowRestriction?.values == [3])
        #expect(expensive.parent == "SportCar" && sport.parent == "Car")
        #expect(Set([car.table, sport.table, expensive.table]) == ["ZCAR"])
        // The sub-entity's own attribute, and what it inherits, with the model's spelling.
        #expect(expensive.attribute(named: "isLimitedEdition")?.type == .bool)
        #expect(expensive.attribute(named: "markedForDeletionAsOf")?.column == "ZMARKEDFORDELETIONASOF")
        #expect(car.attribute(named: "isLimitedEdition") == nil)
    }

    @Test("relationships from the model: to-one foreign key, to-many through the inverse's column")
    func relationshipsFromModel() throws {
        let model = try StoreFile(path: Fixtures.sampleModel, modelPath: Fixtures.sampleModelContents).model
        let owner = try #require(try model.entity(named: "Car").relationship(named: "owner"))
        #expect(owner.destination == "Person" && !owner.isToMany)
        guard case .foreignKey("ZOWNER") = owner.storage else { Issue.record("owner: \(owner.storage)"); return }
        let cars = try #require(try model.entity(named: "Person").relationship(named: "cars"))
        #expect(cars.destination == "Car" && cars.isToMany && cars.inverse == "owner")
        guard case .inverseForeignKey("ZOWNER") = cars.storage else { Issue.record("cars: \(cars.storage)"); return }
    }

    @Test("a many-to-many relationship finds its join table, with and without the model")
    func joinTable() throws {
        for modelPath in [Fixtures.testModelContents, nil] {
            let model = try StoreFile(path: Fixtures.testModel, modelPath: modelPath, readModelCache: false).model
            let books = try #require(try model.entity(named: "Author").relationship(named: "books"))
            guard case .joinTable("Z_1BOOKS", "Z_1AUTHORS", "Z_2BOOKS") = books.storage else {
                Issue.record("books: \(books.storage)")
                continue
            }
            let authors = try #require(try model.entity(named: "Book").relationship(named: "authors"))
            guard case .joinTable("Z_1BOOKS", "Z_2BOOKS", "Z_1AUTHORS") = authors.storage else {
                Issue.record("authors: \(authors.storage)")
                continue
            }
        }
    }

    @Test("without a model, Z columns name keys: Z<n>_<REL> and entity names make to-ones, Z<n><REL> a to-many without inverse")
    func matchedColumns() throws {
        let books = try StoreFile(path: Fixtures.books, readModelCache: false).model
        let page = try books.entity(named: "Page")
        #expect(page.relationship(named: "book")?.destination == "Book")
        #expect(page.attribute(named: "number")?.column == "ZNUMBER")
        #expect(page.attribute(named: "book") == nil)
        #expect(books.namesSource.contains("matched by name"))
        let cart = try StoreFile(path: Fixtures.cartSwiftData, readModelCache: false).model
        let items = try #require(try cart.entity(named: "CartModel").relationship(named: "items"))
        #expect(items.destination == "CartItemModel" && items.isToMany)
        guard case .inverseForeignKey("Z3ITEMS") = items.storage else { Issue.record("items: \(items.storage)"); return }
    }

    @Test("the model cached in Z_MODELCACHE gives the model file's entities, types and relationships", arguments: [
        (Fixtures.sampleModel, Fixtures.sampleModelContents), (Fixtures.testModel, Fixtures.testModelContents),
    ])
    func modelCache(store: String, contents: String) throws {
        let db = try Fixtures.open(store)
        let blob = try #require(try db.fetchValue(Data.self, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE"))
        let cached = try ModelCache.read(Array(blob))
        let file = try ModelContents.read(contents)
        func summary(_ model: ModelContents) -> [String] {
            model.entities.sorted { $0.name < $1.name }.map { entity in
                "\(entity.name):\(entity.parent ?? "-") " + entity.attributes.map { "\($0.name)=\($0.type.rawValue)" }.joined(separator: ",")
                    + " " + entity.relationships.map { "\($0.name)->\($0.destination)\($0.isToMany ? "*" : "1")~\($0.inverse ?? "")" }
                    .joined(separator: ",")
            }
        }
        #expect(summary(cached) == summary(file))
        #expect(try StoreFile(path: store).model.namesSource == "the model cached in the store (Z_MODELCACHE)")
    }

    @Test("a model cache that does not decompress is a note, and names fall back to the Z columns")
    func corruptModelCache() throws {
        let copy = try Fixtures.copy(Fixtures.users, executing: "UPDATE Z_MODELCACHE SET Z_CONTENT = x'FFFFFFFF'")
        let model = try StoreFile(path: copy).model
        #expect(model.namesSource.hasPrefix("the Z columns, matched by name"))
        #expect(model.notes.first?.hasPrefix("the model cached in Z_MODELCACHE could not be read (Z_MODELCACHE does not decompress: ") == true)
        #expect(throws: ModelCache.Failure.self) { _ = try ModelCache.read(Array("bplist00".utf8)) }
    }

    @Test("Z_METADATA's property list gives the model's version hashes")
    func metadata() throws {
        let model = try StoreFile(path: Fixtures.sampleModel).model
        let labels = model.facts.map(\.label)
        #expect(labels.contains("version hash Car") && labels.contains("version hash ExpensiveSportCar"))
        #expect(model.facts.first { $0.label == "NSStoreType" }?.value == "SQLite")
        #expect(model.facts.first { $0.label == "NSStoreModelVersionIdentifiers" }?.value == "\"1\"")
    }

    @Test("a model property with no column is named in the notes")
    func newerModel() throws {
        let model = try StoreFile(path: Fixtures.cartCoreData, modelPath: Fixtures.cartContents).model
        #expect(model.notes.contains("CDCart.sessionId has no column in ZCDCART"))
        #expect(try model.entity(named: "CDCartItem").relationship(named: "cart")?.destination == "CDCart")
    }

    @Test("files that are not stores are refused, naming the file and why")
    func notAStore() throws {
        let text = try Fixtures.write("hello", named: "notes.sqlite")
        #expect(throws: ToolError.self) { _ = try StoreFile(path: text) }
        do {
            _ = try StoreFile(path: text)
        } catch {
            #expect(error.message == "\(text) is not a store: an SQLite database starts with \"SQLite format 3\", this file does not")
        }
        do {
            _ = try StoreFile(path: text + ".missing")
        } catch {
            #expect(error.message == "no file at \(text).missing")
        }
    }
}

@Suite("Model contents parser")
struct ModelContentsTests {
    @Test("entities, inheritance, types, transient properties skipped, relationships with inverses")
    func parse() throws {
        let model = try ModelContents.parse("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Car" representedClassName="Car">
                    <attribute name="maker" optional="YES" attributeType="String"/>
                    <attribute name="speed" transient="YES" attributeType="Integer 64"/>
                    <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="cars"/>
                </entity>
                <entity name="SportCar" parentEntity="Car"><attribute name="isFast" attributeType="Boolean"/></entity>
                <entity name="Person">
                    <attribute name="note" attributeType="String" defaultValueString="a &amp; b &quot;c&quot;"/>
                    <relationship name="cars" toMany="YES" destinationEntity="Car" inverseName="owner"/>
                </entity>
            </model>
            """, file: "contents")
        #expect(model.entities.map(\.name) == ["Car", "SportCar", "Person"])
        #expect(model.entities[0].attributes.map(\.name) == ["maker"])
        #expect(model.lineage(of: "SportCar").map(\.name) == ["Car", "SportCar"])
        #expect(model.entities[1].attributes.first?.type == .bool)
        #expect(model.entities[0].relationships.first?.isToMany == false)
        #expect(model.entities[2].relationships.first?.isToMany == true)
        #expect(ModelContents.xmlAttributes(#"a x="1 &amp; 2" y='z'"#) == ["x": "1 & 2", "y": "z"])
    }
}
