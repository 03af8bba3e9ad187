@testable import CairnMacros
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

@Suite("@Table, @Selection and #sql expansions")
struct TableMacroTests {
    @Test func tableWithIDAndLiteralDefaults() {
        assertMacroExpansion(
            """
            @Table
            struct Tag {
                let id: Int
                var title = ""
            }
            """,
            expandedSource: """
            struct Tag {
                let id: Int
                var title = ""
            }

            extension Tag: Cairn.Table, Cairn.PrimaryKeyedTable, Cairn.BindableRow, Cairn.InsertableRow, Cairn.SelectionRow {
                struct TableColumns: Cairn.PrimaryKeyedTableDefinition, Sendable {
                    typealias QueryValue = Tag
                    let id = Cairn.TableColumn<Tag, Int>._column("id", table: Tag.tableName)
                    let title = Cairn.TableColumn<Tag, String>._column("title", table: Tag.tableName)
                    let primaryKey = Cairn.TableColumn<Tag, Int>._column("id", table: Tag.tableName)
                    var allColumns: [any Cairn.TableColumnExpression] {
                        Self._flattened([id, title])
                    }
                    var writableColumns: [any Cairn.TableColumnExpression] {
                        Self._flattened([id, title], writable: true)
                    }
                }
                nonisolated struct Columns: Cairn.QueryExpression {
                    typealias QueryValue = Tag
                    let selectedExpressions: [Cairn.SQLExpression]
                    var sqlExpression: Cairn.SQLExpression {
                        Cairn.SQLExpression.selectionList(selectedExpressions)
                    }
                    init(
                        id: some Cairn.QueryExpression<Int>,
                        title: some Cairn.QueryExpression<String> = Cairn._DefaultColumns<String>("")
                    ) {
                        var selectedExpressions: [Cairn.SQLExpression] = []
                        selectedExpressions.append(contentsOf: id.selectedExpressions)
                        selectedExpressions.append(contentsOf: title.selectedExpressions)
                        self.selectedExpressions = selectedExpressions
                    }
                }
                static let columns = TableColumns()
                static let tableName = "tags"
                var primaryKey: Int {
                    id
                }
                static var columnWidth: Int {
                    [Int.columnWidth, String.columnWidth].reduce(0, &+)
                }
                init(decoder: inout Cairn.QueryDecoder) throws {
                    self.id = try decoder.decodeColumn(Int.self)
                    self.title = try decoder.decodeColumn(String.self)
                }
                static func decode(from decoder: inout Cairn.QueryDecoder) throws -> Tag {
                    let _0 = try decoder.decodeColumn(Int.self)
                    let _1 = try decoder.decodeColumn(String.self)
                    return Tag(id: _0, title: _1)
                }
                typealias Into = Tag
                func databaseValues() throws -> [Cairn.DatabaseValue] {
                    var values: [Cairn.DatabaseValue] = []
                    values.reserveCapacity(2)
                    try values._append(self.id, as: Int.self, property: "id")
                    try values._append(self.title, as: String.self, property: "title")
                    return values
                }
                nonisolated struct Draft: Cairn.TableDraft {
                    typealias Into = Tag
                    var id: Int?
                    var title: String
                    init(
                        id: Int? = nil,
                        title: String = ""
                    ) {
                        self.id = id
                        self.title = title
                    }
                    init(_ other: Tag) {
                        self.init(id: other.id, title: other.title)
                    }
                    func databaseValues() throws -> [Cairn.DatabaseValue] {
                        var values: [Cairn.DatabaseValue] = []
                        values.reserveCapacity(2)
                        try values._append(self.id, as: Optional<Int>.self, property: "id")
                        try values._append(self.title, as: String.self, property: "title")
                        return values
                    }
                }
            }
            """)
    }

    @Test func selectionColumnsInitializer() {
        assertMacroExpansion(
            """
            @Selection
            struct Stats {
                var list: RemindersList
                var count = 0
            }
            """,
            expandedSource: """
            struct Stats {
                var list: RemindersList
                var count = 0
            }

            extension Stats: Cairn.SelectionRow, Cairn.Table, Cairn.BindableRow {
                nonisolated struct Columns: Cairn.QueryExpression {
                    typealias QueryValue = Stats
                    let selectedExpressions: [Cairn.SQLExpression]
                    var sqlExpression: Cairn.SQLExpression {
                        Cairn.SQLExpression.selectionList(selectedExpressions)
                    }
                    init(
                        list: some Cairn.QueryExpression<RemindersList>,
                        count: some Cairn.QueryExpression<Int> = Cairn._DefaultColumns<Int>(0)
                    ) {
                        var selectedExpressions: [Cairn.SQLExpression] = []
                        selectedExpressions.append(contentsOf: list.selectedExpressions)
                        selectedExpressions.append(contentsOf: count.selectedExpressions)
                        self.selectedExpressions = selectedExpressions
                    }
                }
                struct TableColumns: Cairn.TableDefinition, Sendable {
                    typealias QueryValue = Stats
                    let list = Cairn.TableColumn<Stats, RemindersList>._column("list", table: Stats.tableName)
                    let count = Cairn.TableColumn<Stats, Int>._column("count", table: Stats.tableName)
                    var allColumns: [any Cairn.TableColumnExpression] {
                        Self._flattened([list, count])
                    }
                    var writableColumns: [any Cairn.TableColumnExpression] {
                        Self._flattened([list, count], writable: true)
                    }
                }
                static let columns = TableColumns()
                static let tableName = "statses"
                static var columnWidth: Int {
                    [RemindersList.columnWidth, Int.columnWidth].reduce(0, &+)
                }
                init(decoder: inout Cairn.QueryDecoder) throws {
                    self.list = try decoder.decodeColumn(RemindersList.self)
                    self.count = try decoder.decodeColumn(Int.self)
                }
                static func decode(from decoder: inout Cairn.QueryDecoder) throws -> Stats {
                    let _0 = try decoder.decodeColumn(RemindersList.self)
                    let _1 = try decoder.decodeColumn(Int.self)
                    return Stats(list: _0, count: _1)
                }
                func databaseValues() throws -> [Cairn.DatabaseValue] {
                    var values: [Cairn.DatabaseValue] = []
                    values.reserveCapacity(2)
                    try values._appendSelected(self.list, as: RemindersList.self, property: "list")
                    try values._appendSelected(self.count, as: Int.self, property: "count")
                    return values
                }
            }
            """)
    }

    /// `decode(from:)` builds a row with the memberwise initializer only when the struct
    /// certainly has one taking exactly the columns; otherwise it goes through `init(decoder:)`.
    @Test(arguments: [
        ("struct Row { let id: Int; init(id: Int) { self.id = id } }", false),
        ("struct Row { let id: Int; private var note: String }", false),
        ("struct Row<T> { let id: Int }", false),
        ("struct Row { let id: Int; lazy var cache = 0 }", false),
        ("struct Row { let id: Int; @Wrapped var other: Int }", false),
        ("struct Row { let id: Int; var (a, b) = (1, 2) }", false),
        ("struct Row { let id: Int; @Column(as: Date.ISO8601Representation.self) var at: Date; var n: Int = 1 { didSet {} } }", true),
        ("struct Row { let id: Int; @Ephemeral var draft = false; @Ephemeral let kind = 1; var total: Int { id } }", true),
        ("struct Row { let id: Int; static var count = 0 }", true),
        ("@AddsAnInit struct Row { let id: Int }", false),
        ("struct Row { let id: Int\n#if DEBUG\ninit() { id = 0 }\n#endif\n}", false),
        ("@frozen @MainActor struct Row { let id: Int }", true),
    ])
    func decodeUsesMemberwiseInitializerOnlyWhenItExists(source: String, memberwise: Bool) {
        let expanded = MacroExpansion.expand("@Table " + source).expanded
        #expect(expanded.contains("return Row(id: _0") == memberwise, "\(expanded)")
        #expect(expanded.contains("try Row(decoder: &decoder)") == !memberwise)
    }

    @Test func memberwiseDecodingPassesColumnsInOrderAndLeavesEphemeralsToTheirDefaults() {
        assertExpansionContains(
            "@Table struct Row { let id: Int; @Ephemeral var draft = false; @Column(\"n\", as: Date.UnixTimeRepresentation.self) var at: Date }",
            ["""
                let _0 = try decoder.decodeColumn(Int.self)
                    let _1 = try decoder.decodeColumn(Date.UnixTimeRepresentation.self)
                    return Row(id: _0, at: _1)
            """])
    }

    @Test func tableNameGivenOrInferred() {
        assertExpansionContains("@Table(\"lists\") struct RemindersList { let id: Int }", [#"static let tableName = "lists""#])
        assertExpansionContains(
            "@Table(\"lists\", schema: \"archive\") struct RemindersList { let id: Int }",
            [#"static let tableName = "lists""#, #"static let schemaName: String? = "archive""#])
        assertExpansionContains("@Table(schema: \"archive\") struct Tag { let id: Int }", [
            #"static let tableName = "tags""#, #"static let schemaName: String? = "archive""#,
        ])
        // A quote or backslash followed by a combining mark is one Character, but Swift's lexer
        // still reads the quote as the literal's end: it is escaped in the generated literal.
        assertExpansionContains(
            "@Table(\"a\\\"\u{301}b\\\\\u{301}\") struct Odd { let id: Int }",
            ["static let tableName = \"a\\\"\u{301}b\\\\\u{301}\""])
        // A @Selection row is a table too (for common table expressions), named the same way.
        assertExpansionContains("@Selection(\"tally\") struct Count { let value: Int }", [#"static let tableName = "tally""#])
        assertExpansionContains("@Selection struct HighPriorityList { let id: Int }", [
            #"static let tableName = "highPriorityLists""#,
            #"let id = Cairn.TableColumn<HighPriorityList, Int>._column("id", table: HighPriorityList.tableName)"#,
        ])
        // Beside @Table (a view's row), @Selection writes nothing: @Table's one extension has
        // the table conformance, with its inserts, and Columns.
        let both = "@Table @Selection struct ReminderWithList { let title: String; let listTitle: String }"
        assertExpansionContains(both, [
            "extension ReminderWithList: Cairn.Table, Cairn.BindableRow, Cairn.InsertableRow, Cairn.SelectionRow {",
            "nonisolated struct Columns: Cairn.QueryExpression {",
            #"static let tableName = "reminderWithLists""#,
        ])
        for source in [
            both, "@Selection @Table struct V { let a: Int }", "@Cairn.Table @Selection struct V { let a: Int }",
            "@Table(\"v\") @Selection struct V { let a: Int }",
        ] {
            let expanded = MacroExpansion.expand(source).expanded
            // The test expander knows `Table` by its plain name only: beside `@Cairn.Table`, what
            // is left to see is that `@Selection` writes nothing.
            let written = source.hasPrefix("@Cairn.") ? 0 : 1
            #expect(expanded.ranges(of: "struct Columns").count == written, "\(expanded)")
            #expect(expanded.ranges(of: "extension ").count == written, "\(expanded)")
        }
        // Beside @Table, a name given to @Selection would be ignored: the macro says so.
        assertExpansionContains(
            "@Table @Selection(\"v\") struct V { let a: Int }", ["extension V: Cairn.Table, Cairn.BindableRow, Cairn.InsertableRow, Cairn.SelectionRow {"],
            diagnostics: [#"1:1: beside @Table, the row is named by @Table: write @Table("v") @Selection"#])
        #expect(TableMacro.inferredTableName("RemindersList") == "remindersLists")
        #expect(TableMacro.inferredTableName("Category") == "categories")
        #expect(TableMacro.inferredTableName("Day") == "days")
        #expect(TableMacro.inferredTableName("Box") == "boxes")
        #expect(TableMacro.inferredTableName("Match") == "matches")
        #expect(TableMacro.inferredTableName("ReminderTag") == "reminderTags")
    }

    @Test func columnRepresentationsNamesAndPrimaryKey() {
        assertExpansionContains(
            """
            @Table
            struct Attachment {
                @Column(primaryKey: true) var key: Int
                @Column("created_at", as: Date.UnixTimeRepresentation.self) var createdAt: Date
                @Column(as: Date.ISO8601Representation?.self) var editedAt: Date?
                @Ephemeral var isSelected = false
                var size: Int { 0 }
                static var sample = 0
            }
            """,
            [
                #"let createdAt = Cairn.TableColumn<Attachment, Date.UnixTimeRepresentation>._column("created_at", table: Attachment.tableName)"#,
                #"let editedAt = Cairn.TableColumn<Attachment, Date.ISO8601Representation?>._column("editedAt", table: Attachment.tableName)"#,
                #"let primaryKey = Cairn.TableColumn<Attachment, Int>._column("key", table: Attachment.tableName)"#,
                "Self._flattened([key, createdAt, editedAt])",
                "self.editedAt = try decoder.decodeColumn((Date.ISO8601Representation?).self)",
                "try values._append(self.createdAt, as: Date.UnixTimeRepresentation.self, property: \"createdAt\")",
                "init( key: Int? = nil, createdAt: Date, editedAt: Date? = nil ) {",
                // Columns takes each column in its representation; an optional one defaults to NULL.
                """
                init(
                    key: some Cairn.QueryExpression<Int>,
                    createdAt: some Cairn.QueryExpression<Date.UnixTimeRepresentation>,
                    editedAt: some Cairn.QueryExpression<Date.ISO8601Representation?> = Cairn._DefaultColumns<Date.ISO8601Representation?>.null
                ) {
                """,
            ])
        assertExpansionLacks(
            "@Table struct Attachment { let id: Int; @Ephemeral var isSelected = false; var size: Int { 0 } }",
            ["isSelected = Cairn", "let size"])
    }

    @Test func generatedColumnsAreReadButNeverWritten() {
        let source = """
            @Table
            struct Row {
                let id: Int
                var isDeleted = false
                @Column(generated: .virtual) let isNotDeleted: Bool
                @Column("label", generated: .stored) let displayName: String
            }
            """
        assertExpansionContains(source, [
            // Read: a column, decoded with the others.
            #"let isNotDeleted = Cairn.TableColumn<Row, Bool>._column("isNotDeleted", table: Row.tableName)"#,
            #"let displayName = Cairn.TableColumn<Row, String>._column("label", table: Row.tableName)"#,
            "var allColumns: [any Cairn.TableColumnExpression] { Self._flattened([id, isDeleted, isNotDeleted, displayName]) }",
            "self.displayName = try decoder.decodeColumn(String.self)",
            // Written: only the other columns.
            "var writableColumns: [any Cairn.TableColumnExpression] { Self._flattened([id, isDeleted], writable: true) }",
            "init( id: Int? = nil, isDeleted: Bool = false ) {",
        ])
        assertExpansionLacks(source, [
            "_append(self.isNotDeleted", "_append(self.displayName", "var isNotDeleted: Bool", "var displayName",
        ])
    }

    /// A property whose type is a `@Selection` row is declared like any column: `_column`'s
    /// overloads make it a `ColumnGroup`, `_flattened` lists its columns and `_append` binds
    /// them, so the expansion is the same whatever the type turns out to be.
    @Test func aColumnGroupExpandsAsAColumnWhoseTypeDecides() {
        let source = """
            @Table
            struct Item {
                let id: Int
                var status = Status()
                var timestamps: Timestamps
            }
            """
        assertExpansionContains(source, [
            #"let status = Cairn.TableColumn<Item, Status>._column("status", table: Item.tableName)"#,
            #"let timestamps = Cairn.TableColumn<Item, Timestamps>._column("timestamps", table: Item.tableName)"#,
            "var allColumns: [any Cairn.TableColumnExpression] { Self._flattened([id, status, timestamps]) }",
            "var writableColumns: [any Cairn.TableColumnExpression] { Self._flattened([id, status, timestamps], writable: true) }",
            "[Int.columnWidth, Status.columnWidth, Timestamps.columnWidth].reduce(0, &+)",
            // In Columns, a group takes an expression of its row; a default row is bound in place.
            """
            init(
                id: some Cairn.QueryExpression<Int>,
                status: some Cairn.QueryExpression<Status> = Cairn._DefaultColumns<Status>(Status()),
                timestamps: some Cairn.QueryExpression<Timestamps>
            )
            """,
            "self.timestamps = try decoder.decodeColumn(Timestamps.self)",
            "try values._append(self.status, as: Status.self, property: \"status\")",
            "init( id: Int? = nil, status: Status = Status(), timestamps: Timestamps ) {",
        ])
        // A @Selection row binds its columns in order, generated ones left out, to be a group.
        assertExpansionContains(
            "@Selection struct Stock { var quantity = 0; @Column(generated: .virtual) let isEmpty: Bool }",
            [
                "extension Stock: Cairn.SelectionRow, Cairn.Table, Cairn.BindableRow {",
                "var writableColumns: [any Cairn.TableColumnExpression] { Self._flattened([quantity], writable: true) }",
                "func databaseValues() throws -> [Cairn.DatabaseValue] { var values: [Cairn.DatabaseValue] = [] "
                    + #"values.reserveCapacity(1) try values._appendSelected(self.quantity, as: Int.self, property: "quantity") return values }"#,
            ])
    }

    /// A default value that calls an initializer names the column's type; other calls do not.
    @Test(arguments: [
        ("var status = Status()", "Status"), ("var at = Date(timeIntervalSince1970: 0)", "Date"),
        ("var kind = Item.Kind()", "Item.Kind"),
    ])
    func anInitializerCallNamesTheType(declaration: String, type: String) {
        assertExpansionContains("@Table struct Row { let id: Int; \(declaration) }", ["Cairn.TableColumn<Row, \(type)>._column("])
        #expect(MacroExpansion.expand("@Table struct Row { var at = Date.now.advanced(by: 1) }").diagnostics.count == 1)
    }

    @Test func aGroupIsACompositePrimaryKey() {
        let source = """
            @Table
            struct Enrollment {
                let id: ID
                var grade: String?
            }
            """
        assertExpansionContains(source, [
            #"let id = Cairn.TableColumn<Enrollment, ID>._column("id", table: Enrollment.tableName)"#,
            #"let primaryKey = Cairn.TableColumn<Enrollment, ID>._column("id", table: Enrollment.tableName)"#,
            "var primaryKey: ID { id }",
            "var id: ID?",
            "init( id: ID? = nil, grade: String? = nil ) {",
            "try values._append(self.id, as: Optional<ID>.self, property: \"id\")",
        ])
        for attribute in ["@Column(primaryKey: true)", "@Columns(primaryKey: true)"] {
            assertExpansionContains(
                "@Table struct Membership { \(attribute) let key: MembershipKey; var role = \"\" }",
                [#"let primaryKey = Cairn.TableColumn<Membership, MembershipKey>._column("key", table: Membership.tableName)"#,
                 "var key: MembershipKey?"])
        }
    }

    @Test func aPropertyNamedPrimaryKeyIsNotShadowed() {
        assertExpansionLacks(
            "@Table struct Book { @Column(primaryKey: true) let isbn: String; var primaryKey: String { isbn } }",
            ["var primaryKey: String { isbn } static var columnWidth"])
        assertExpansionContains("@Table struct Book { @Column(primaryKey: true) let isbn: String }",
                                ["var primaryKey: String { isbn } static var columnWidth"])
    }

    @Test func tableWithoutPrimaryKeyHasNoDraft() {
        assertExpansionContains(
            "@Table struct ReminderTag { var reminderID: Int; var tagID: Int }",
            ["extension ReminderTag: Cairn.Table, Cairn.BindableRow, Cairn.InsertableRow, Cairn.SelectionRow {", "struct TableColumns: Cairn.TableDefinition, Sendable {"])
        assertExpansionLacks("@Table struct ReminderTag { var reminderID: Int; var tagID: Int }", ["struct Draft", "primaryKey"])
    }

    /// `@Column(lazyInitializable: true)`: optional in the `Draft` and bound as optional, like
    /// the key, and named in `lazilyInitializedColumns`; `false` changes nothing.
    @Test func lazilyInitializableColumnsAreOptionalInTheDraft() {
        let source = """
            @Table
            struct User {
                let id: UUID
                var name = ""
                @Column("created", lazyInitializable: true) let createdAt: Date
                @Column(lazyInitializable: false) var teamID: Int
                @Column(lazyInitializable: true) var nickname: String?
            }
            """
        assertExpansionContains(source, [
            "var createdAt: Date? var teamID: Int var nickname: String?",
            "init( id: UUID? = nil, name: String = \"\", createdAt: Date? = nil, teamID: Int, nickname: String? = nil ) {",
            #"static var lazilyInitializedColumns: [String] { ["created", "nickname"] }"#,
            "try values._append(self.createdAt, as: Optional<Date>.self, property: \"createdAt\")",
            "try values._append(self.teamID, as: Int.self, property: \"teamID\")",
            "try values._append(self.nickname, as: (String?).self, property: \"nickname\")",
        ])
        // A table without a key has a draft once a column is lazily initialized.
        let keyless = "@Table struct Event { var title: String; @Column(lazyInitializable: true) let at: Date }"
        assertExpansionContains(keyless, [
            "struct Draft: Cairn.TableDraft {", "var title: String var at: Date?", "init( title: String, at: Date? = nil ) {",
            #"static var lazilyInitializedColumns: [String] { ["at"] }"#,
        ])
        assertExpansionLacks(keyless, ["PrimaryKeyedTable"])
    }

    @Test(arguments: [
        ("@Table class Reminder { let id: Int }", "1:1: @Table can only be applied to a struct, not to a class"),
        ("@Table enum Reminder { case a }", "1:1: @Table can only be applied to a struct, not to an enum"),
        ("@Table struct R {\n    var due = makeDate()\n}", "2:9: @Table cannot infer the column type of 'due' from its default value; write the type (for example 'var due: Int = 0'), or mark it @Ephemeral"),
        ("@Table struct R {\n    var pair: (Int, Int)\n}", "2:15: @Table cannot store 'pair' of type '(Int, Int)': a tuple cannot be a column; mark it @Ephemeral, or store it through @Column(as:) (for example a JSONRepresentation)"),
        ("@Table struct R {\n    var run: () -> Void\n}", "2:14: @Table cannot store 'run' of type '() -> Void': a function cannot be a column; mark it @Ephemeral, or store it through @Column(as:) (for example a JSONRepresentation)"),
        ("@Table struct R {\n    @Ephemeral var cache: [Int]\n}", "2:20: @Ephemeral property 'cache' needs a default value: rows read from the database do not set it"),
        ("@Table struct R {\n    @Column(primaryKey: true) var a: Int\n    @Column(primaryKey: true) var b: Int\n}", "1:1: @Table supports one primary-key column; found 'a', 'b'"),
        ("@Selection struct S {\n    var value: any Error\n}", "2:16: @Selection cannot store 'value' of type 'any Error': an existential ('any' or 'some') cannot be a column; mark it @Ephemeral, or store it through @Column(as:) (for example a JSONRepresentation)"),
    ])
    func diagnostics(source: String, diagnostic: String) {
        #expect(MacroExpansion.expand(source).diagnostics == [diagnostic])
    }

    @Test func sqlMacroTypesItsLiteralAsAFragment() {
        let expanded = expandSQL(#"let e = #sql("\(a) + \(b)", as: Int.self)"#)
        #expect(expanded.text.contains(#"Cairn.SQLQueryExpression("\(a) + \(b)" as Cairn.QueryFragment, as: Int.self)"#))
        #expect(expanded.diagnostics.isEmpty)
        #expect(expandSQL(#"let e = #sql("SELECT 1")"#).text.contains(#"Cairn.SQLQueryExpression("SELECT 1" as Cairn.QueryFragment)"#))
    }

    @Test func bindMacroWrapsItsValueAsABoundExpression() {
        func expand(_ source: String) -> String {
            let file = Parser.parse(source: source)
            let context = BasicMacroExpansionContext(
                sourceFiles: [file: .init(moduleName: "TestModule", fullFilePath: "Test.swift")])
            return file.expand(macroSpecs: ["bind": MacroSpec(type: BindMacro.self)], contextGenerator: { _ in context },
                               indentationWidth: .spaces(4)).description
        }
        #expect(expand("let e = #bind(Date())") == "let e = Cairn.BindQueryExpression(Date())")
        #expect(expand("let e = #bind(date, as: Date.UnixTimeRepresentation.self)")
            == "let e = Cairn.BindQueryExpression(date, as: Date.UnixTimeRepresentation.self)")
    }

    @Test(arguments: [
        (#"#sql("count(*")"#, "#sql: 1 unclosed '('"),
        (#"#sql("a) + (b")"#, "#sql: ')' without a matching '('"),
        (#"#sql("title = 'x")"#, "#sql: unterminated ' quote; bind values with \\(value) instead of quoting them"),
    ])
    func sqlMacroLints(source: String, message: String) {
        #expect(expandSQL("let e = " + source).diagnostics == [message])
    }

    @Test func sqlMacroAcceptsQuotedParentheses() {
        #expect(expandSQL(#"let e = #sql("title = ')' AND \(x)")"#).diagnostics.isEmpty)
        // A quote followed by a combining mark still opens the string, as SQLite reads it.
        #expect(expandSQL("let e = #sql(\"title = '\u{301})'\")").diagnostics.isEmpty)
    }

    /// Expands `#sql` (whose macro name differs from its type name in the registry).
    func expandSQL(_ source: String) -> (text: String, diagnostics: [String]) {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(
            sourceFiles: [file: .init(moduleName: "TestModule", fullFilePath: "Test.swift")])
        let expanded = file.expand(
            macroSpecs: ["sql": MacroSpec(type: SQLMacro.self)], contextGenerator: { _ in context },
            indentationWidth: .spaces(4))
        return (expanded.description, context.diagnostics.map { $0.message })
    }
}
