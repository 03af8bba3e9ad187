// Typed SQL as StructuredQueries code writes it: `Scripts/typecheck-timing.sh` reports the
// time of each function (the six-term `where` is the figure Docs/TypedSQL.md quotes).
import Cairn

@Table
struct TimedReminder {
    let id: Int
    var title = ""
    var priority: Int?
    var position = 0
    var isCompleted = false
    var listID = 0
}

@Table
struct TimedList {
    let id: Int
    var title = ""
}

func sixTermWhere() {
    _ = TimedReminder.where {
        $0.position >= 0 && $0.priority > 1 && !$0.isCompleted && $0.title.neq("") && $0.listID < 10 && $0.id <= 100
    }
}

func sixTermWhereWithMethods() {
    _ = TimedReminder.where {
        $0.position.gte(0) && $0.priority.gt(1) && !$0.isCompleted && $0.title.neq("") && $0.listID.lt(10) && $0.id.lte(100)
    }
}

func comparisonsOnAggregates() {
    _ = TimedReminder.group(by: \.listID).having { $0.id.count() > 3 }.select { ($0.listID, $0.id.count()) }
}

func joinCondition() {
    _ = TimedList.join(TimedReminder.all) { $0.id.eq($1.listID) }.where { $1.priority > 2 && $0.title.neq("x") }
}

func arithmeticSelect() {
    _ = TimedReminder.select { ($0.id - 7) / 2 }
}

func tupleSelectAcrossAJoin() {
    _ = TimedReminder.join(TimedList.all) { $0.listID.eq($1.id) }.select { ($0.title, $1.title, $0.position + 1) }
}

func chainedSelect() {
    _ = TimedReminder.select(\.id).where { $0.priority > 1 }.select { ($0.title, $0.position + 1) }.select(\.listID)
}

func selectJoinSelect() {
    _ = TimedReminder.select(\.title).join(TimedList.all) { $0.listID.eq($1.id) }.where { $1.id > 2 }.select { $1.title }
}

extension TimedList {
    static let withReminderCount = group(by: \.id)
        .join(TimedReminder.all) { $0.id.eq($1.listID) }
        .select { $1.id.count() }
}

extension TimedReminder {
    static var incomplete: Where<TimedReminder> { Self.where { !$0.isCompleted } }
}

func staticStatementsChainedByName() {
    _ = TimedList.order(by: \.title).limit(1).select(\.title).withReminderCount.having { $1.id.count() > 1 }
    _ = TimedReminder.where { $0.priority > 1 }.incomplete.select { ($0.title, $0.position + 1) }
}

func insertOfRows() {
    _ = TimedReminder.insert {
        TimedReminder(id: 1, title: "a", priority: 2, position: 0, isCompleted: false, listID: 1)
        TimedReminder.Draft(title: "b", listID: 2)
    }
    _ = TimedReminder.insert { $0 } values: { TimedReminder(id: 2, title: "c") }
}

func insertOfNamedColumnValues() {
    _ = TimedReminder.insert { ($0.listID, $0.title, $0.priority, $0.isCompleted) } values: {
        (1, "Groceries", 3, false)
        (2, "Haircut", nil, true)
    }
}

func insertOfNamedColumnExpressions() {
    _ = TimedReminder.insert { ($0.listID, $0.title, $0.priority, $0.isCompleted) } values: {
        (1, "Groceries", 3, false)
        (#sql("2"), #sql("'Haircut'"), #sql("NULL"), #sql("1"))
        (TimedList.where { $0.title.eq("Work") }.select(\.id), "call".upper(), #sql("1"), true)
    } onConflictDoUpdate: {
        $0.title += " Copy"
    }
}
