import Foundation
import SQLiteData
import Testing

// An app's data layer written as SQLiteData's sample apps write theirs: UUID keys the schema
// assigns, enums as columns, computed columns on `TableColumns`, static queries, joins through
// a link table, a full-text table kept by triggers, and the queries of a list screen.

@Table
struct Rack: Hashable, Identifiable {
    let id: UUID
    var position = 0
    var title = ""
}

@Table
struct RackCover: Hashable, Identifiable {
    @Column(primaryKey: true)
    let rackID: Rack.ID
    var image: Data?
    var id: Rack.ID { rackID }
}

@Table
struct Book: Hashable, Identifiable {
    let id: UUID
    var dueDate: Date?
    var isFavorite = false
    var notes = ""
    var position = 0
    var rating: Rating?
    @Column(lazyInitializable: false)
    var rackID: Rack.ID
    var status: Status = .unread
    var title = ""

    var isRead: Bool { status != .unread }

    enum Rating: Int, QueryBindable {
        case poor = 1
        case fine
        case great
    }

    enum Status: Int, QueryBindable {
        case read = 1
        case reading = 2
        case unread = 0
    }
}

extension Updates<Book> {
    mutating func advanceStatus() {
        self.status = Case(self.status)
            .when(#bind(.unread), then: #bind(.reading))
            .else(#bind(.read))
    }
}

@Table
struct Label: Hashable, Identifiable {
    @Column(primaryKey: true)
    var title: String
    var id: String { title }
}

@Table("bookLabels")
struct BookLabel: Identifiable {
    let id: UUID
    let bookID: Book.ID
    let labelID: Label.ID
}

@Table
struct BookText: FTS5 {
    let rowid: Int
    let title: String
    let notes: String
}

extension Book {
    static let unread = Self.where { !$0.isRead }
    static let withLabels = group(by: \.id)
        .leftJoin(BookLabel.all) { $0.id.eq($1.bookID) }
        .leftJoin(Label.all) { $1.labelID.eq($2.primaryKey) }
}

extension Book.TableColumns {
    var isRead: some QueryExpression<Bool> {
        status.neq(Book.Status.unread)
    }
    var isOverdue: some QueryExpression<Bool> {
        !isRead && #sql("coalesce(date(\(dueDate)) < date('2025-06-01'), 0)")
    }
    var isScheduled: some QueryExpression<Bool> {
        !isRead && dueDate.isNot(nil)
    }
}

extension Label {
    static let withBooks = group(by: \.primaryKey)
        .leftJoin(BookLabel.all) { $0.primaryKey.eq($1.labelID) }
        .leftJoin(Book.all) { $1.bookID.eq($2.id) }
}

@Selection
struct RackState: Identifiable {
    var id: Rack.ID { rack.id }
    var bookCount: Int
    var rack: Rack
}

@Selection
struct Counts {
    var unreadCount = 0
    var favoriteCount = 0
    var scheduledCount = 0
}

@Selection
struct BookRow {
    let book: Book
    let rack: Rack
    let isOverdue: Bool
    let notes: String
}

@Suite("import SQLiteData: an app's schema and screens")
struct AppSchemaImportTests {
    let database: DatabaseQueue

    init() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Cairn opens connections with `trusted_schema` off; triggers that write an FTS5 table
        // need it on (TypedSQL.md, "What differs").
        configuration.trustedSchema = true
        database = try DatabaseQueue(configuration: configuration)
        try database.write { db in
            try #sql(
                """
                CREATE TABLE "racks" (
                  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
                  "position" INTEGER NOT NULL ON CONFLICT REPLACE DEFAULT 0,
                  "title" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT ''
                ) STRICT
                """
            )
            .execute(db)
            try #sql(
                """
                CREATE TABLE "rackCovers" (
                  "rackID" TEXT PRIMARY KEY NOT NULL REFERENCES "racks"("id") ON DELETE CASCADE,
                  "image" BLOB
                ) STRICT
                """
            )
            .execute(db)
            try #sql(
                """
                CREATE TABLE "books" (
                  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
                  "dueDate" TEXT,
                  "isFavorite" INTEGER NOT NULL ON CONFLICT REPLACE DEFAULT 0,
                  "notes" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT '',
                  "position" INTEGER NOT NULL ON CONFLICT REPLACE DEFAULT 0,
                  "rating" INTEGER,
                  "rackID" TEXT NOT NULL REFERENCES "racks"("id") ON DELETE CASCADE,
                  "status" INTEGER NOT NULL DEFAULT 0,
                  "title" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT ''
                ) STRICT
                """
            )
            .execute(db)
            try #sql(#"CREATE TABLE "labels" ("title" TEXT COLLATE NOCASE PRIMARY KEY NOT NULL) STRICT"#).execute(db)
            try #sql(
                """
                CREATE TABLE "bookLabels" (
                  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
                  "bookID" TEXT NOT NULL REFERENCES "books"("id") ON DELETE CASCADE,
                  "labelID" TEXT NOT NULL REFERENCES "labels"("title") ON DELETE CASCADE ON UPDATE CASCADE
                ) STRICT
                """
            )
            .execute(db)
            try #sql(#"CREATE VIRTUAL TABLE "bookTexts" USING fts5("title", "notes")"#).execute(db)
        }
        try database.write { db in
            try Book.createTemporaryTrigger(
                after: .insert { new in
                    Book
                        .find(new.id)
                        .update { $0.position = Book.select { ($0.position.max() ?? -1) + 1 } }
                }
            )
            .execute(db)
            try Book.createTemporaryTrigger(
                after: .insert { new in
                    BookText.insert {
                        BookText.Columns(rowid: new.rowid, title: new.title, notes: new.notes.replace("\n", " "))
                    }
                }
            )
            .execute(db)
            try Book.createTemporaryTrigger(
                after: .delete { old in
                    BookText.where { $0.rowid.eq(old.rowid) }.delete()
                }
            )
            .execute(db)
        }
    }

    func seed() throws -> (fiction: Rack, poetry: Rack) {
        try database.write { db in
            try Rack.insert {
                Rack.Draft(position: 0, title: "Fiction")
                Rack.Draft(position: 1, title: "Poetry")
            }
            .execute(db)
            let racks = try Rack.order(by: \.position).fetchAll(db)
            let fiction = racks[0], poetry = racks[1]
            try Book.insert {
                Book.Draft(dueDate: Date(timeIntervalSince1970: 1_700_000_000), notes: "A whale\nof a tale", rackID: fiction.id, title: "Moby Dick")
                Book.Draft(isFavorite: true, rating: .great, rackID: fiction.id, status: .read, title: "Emma")
                Book.Draft(isFavorite: true, rackID: poetry.id, status: .reading, title: "Odes")
                Book.Draft(dueDate: Date(timeIntervalSince1970: 1_900_000_000), rackID: poetry.id, title: "Leaves of Grass")
            }
            .execute(db)
            try Label.insert { Label(title: "classic"); Label(title: "long") }.execute(db)
            let books = try Book.order(by: \.title).fetchAll(db)
            let byTitle = Dictionary(uniqueKeysWithValues: books.map { ($0.title, $0.id) })
            try BookLabel.insert {
                for (title, label) in [("Moby Dick", "classic"), ("Moby Dick", "long"), ("Emma", "classic")] {
                    BookLabel.Draft(bookID: byTitle[title]!, labelID: label)
                }
            }
            .execute(db)
            return (fiction, poetry)
        }
    }

    @Test func theListScreen() throws {
        let (fiction, poetry) = try seed()
        try database.read { db in
            let states = try Rack
                .group(by: \.id)
                .order(by: \.position)
                .leftJoin(Book.all) { $0.id.eq($1.rackID) && !$1.isRead }
                .select { RackState.Columns(bookCount: $1.id.count(), rack: $0) }
                .fetchAll(db)
            #expect(states.map(\.rack) == [fiction, poetry])
            #expect(states.map(\.bookCount) == [1, 1])  // "reading" counts as read, as "completing" does

            let labels = try Label
                .order(by: \.title)
                .withBooks
                .having { $2.count().gt(0) }
                .select { label, _, _ in label }
                .fetchAll(db)
            #expect(labels.map(\.title) == ["classic", "long"])

            let counts = try Book.select {
                Counts.Columns(
                    unreadCount: $0.count(filter: !$0.isRead),
                    favoriteCount: $0.count(filter: $0.isFavorite && !$0.isRead),
                    scheduledCount: $0.count(filter: $0.isScheduled)
                )
            }
            .fetchOne(db)
            #expect(counts?.unreadCount == 2 && counts?.favoriteCount == 0 && counts?.scheduledCount == 2)
            #expect(try Book.unread.order(by: \.title).select(\.title).fetchAll(db) == ["Leaves of Grass", "Moby Dick"])
            // The trigger numbered the books in the order they were inserted.
            #expect(try Book.order(by: \.position).select(\.title).fetchAll(db) == ["Moby Dick", "Emma", "Odes", "Leaves of Grass"])
        }
    }

    @Test func theDetailScreen() throws {
        let (fiction, _) = try seed()
        for showRead in [false, true] {
            let rows = try database.read { db in
                // The table's static query chained on after the book's own clauses, as the
                // Reminders example's detail screen writes it.
                try Book
                    .where {
                        if !showRead {
                            $0.status.neq(Book.Status.read)
                        }
                    }
                    .order { $0.status.eq(Book.Status.read) }
                    .order { ($0.rating.desc(), $0.isFavorite.desc()) }
                    .withLabels
                    .where { book, _, label in
                        book.rackID.eq(fiction.id) && label.primaryKey.ifnull("").in(["classic", ""])
                    }
                    .join(Rack.all) { $0.rackID.eq($3.id) }
                    .join(BookText.all) { $0.rowid.eq($4.rowid) }
                    .select {
                        BookRow.Columns(book: $0, rack: $3, isOverdue: $0.isOverdue, notes: $4.notes.substr(0, 200))
                    }
                    .fetchAll(db)
            }
            #expect(rows.map(\.book.title) == (showRead ? ["Moby Dick", "Emma"] : ["Moby Dick"]))
            #expect(rows.first?.isOverdue == true)
            #expect(rows.first?.notes == "A whale of a tale")
        }
    }

    @Test func searchingAndEditing() throws {
        let (fiction, _) = try seed()
        try database.write { db in
            let found = try BookText
                .where { $0.match("whale") }
                .join(Book.all) { $0.rowid.eq($1.rowid) }
                .select { ($1.title, $0.notes.snippet("**", "**", "...", 8)) }
                .fetchAll(db)
            #expect(found.map(\.0) == ["Moby Dick"])
            #expect(found.first?.1.contains("**whale**") == true)

            let ids = try Book.where { $0.rackID.eq(fiction.id) }.order(by: \.title).select(\.id).fetchAll(db)
            try Book
                .where { $0.id.in(ids) }
                .update {
                    let ids = Array(ids.enumerated())
                    let (first, rest) = (ids[0], ids.dropFirst())
                    $0.position = rest
                        .reduce(Case($0.id).when(first.element, then: first.offset)) { cases, id in
                            cases.when(id.element, then: id.offset)
                        }
                        .else($0.position)
                }
                .execute(db)
            #expect(try Book.where { $0.rackID.eq(fiction.id) }.order(by: \.position).select(\.title).fetchAll(db)
                == ["Emma", "Moby Dick"])

            try Book.where { $0.title.eq("Odes") }.update { $0.advanceStatus() }.execute(db)
            #expect(try Book.where { $0.title.eq("Odes") }.select(\.status).fetchOne(db) == .read)

            try Label.update { $0.title = "canon" }.where { $0.title.eq("classic") }.execute(db)
            try Label.insert { Label(title: "long") } onConflictDoUpdate: { _ in }.execute(db)
            let top = try Label
                .withBooks
                .having { $2.count().gt(0) }
                .order { ($2.count().desc(), $0.title) }
                .select { label, _, _ in label }
                .limit(3)
                .fetchAll(db)
            #expect(top.map(\.title) == ["canon", "long"])
            try Label.find("long").delete().execute(db)
            #expect(try BookLabel.where { $0.labelID.eq("long") }.fetchCount(db) == 0)

            let matching = BookText.where { $0.match("Emma") }.join(Book.all) { $0.rowid.eq($1.rowid) }.select { $1.id }
            try Book
                .where { $0.isRead && $0.id.in(matching) }
                .delete()
                .execute(db)
            #expect(try Book.where { $0.title.eq("Emma") }.fetchCount(db) == 0)
            #expect(try BookText.where { $0.match("Emma") }.fetchCount(db) == 0)
        }
    }
}
