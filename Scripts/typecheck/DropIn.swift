// Typed SQL as code written for StructuredQueries before 0.31 writes it, with `==` and `!=` on
// columns (module StructuredQueries): `Scripts/typecheck-timing.sh` reports each function's time.
import StructuredQueries

@Table
struct TimedChore {
    let id: Int
    var title = ""
    var priority: Int?
    var position = 0
    var isDone = false
    var listID = 0
}

@Table
struct TimedChoreList {
    let id: Int
    var title = ""
}

func sixTermWhereWithEquality() {
    _ = TimedChore.where {
        $0.position == 0 && $0.priority != nil && !$0.isDone && $0.title != "" && $0.listID == 3 && $0.id <= 100
    }
}

func joinConditionWithEquality() {
    _ = TimedChoreList.join(TimedChore.all) { $0.id == $1.listID }.where { $1.priority == 2 && $0.title != "x" }
}

func havingWithEquality() {
    _ = TimedChore.group(by: \.listID).having { $0.id.count() == 3 }.select { ($0.listID, $0.title.lower() == "x") }
}
