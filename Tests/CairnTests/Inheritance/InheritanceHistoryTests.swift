import Foundation
import SwiftData
import Testing

@Suite("Model inheritance: history")
struct InheritanceHistoryTests {
    @Test func aSubclassModelsChangesAreRecordedAsItsOwnClass() throws {
        let context = ModelContext(try articlesContainer())
        let tutorial = Tutorial(title: "Swift", difficulty: 1)
        context.insert(tutorial)
        try context.save()
        tutorial.difficulty = 2
        try context.save()
        context.delete(tutorial)
        try context.save()

        let changes = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).flatMap(\.changes)
        #expect(changes.count == 3)
        guard changes.count == 3 else { return }
        if case .insert(let insert as DefaultHistoryInsert<Tutorial>) = changes[0] {
            #expect(insert.changedPersistentIdentifier == tutorial.persistentModelID)
        } else {
            Issue.record("expected a Tutorial insert, got \(changes[0])")
        }
        if case .update(let update as DefaultHistoryUpdate<Tutorial>) = changes[1] {
            #expect(update.updatedAttributes.map { $0 as AnyKeyPath } == [\Tutorial.difficulty])
        } else {
            Issue.record("expected a Tutorial update, got \(changes[1])")
        }
        if case .delete(let delete as DefaultHistoryDelete<Tutorial>) = changes[2] {
            #expect(delete.changedPersistentIdentifier == tutorial.persistentModelID)
        } else {
            Issue.record("expected a Tutorial delete, got \(changes[2])")
        }
    }
}
