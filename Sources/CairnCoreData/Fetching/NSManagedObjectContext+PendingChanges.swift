import Cairn
import Foundation

extension NSManagedObjectContext {
    /// Applies delete rules and reports the unsaved changes made since the last time to the
    /// fetched-results controllers over this context (see `ModelContext.processPendingChanges()`).
    /// `save()` and `rollback()` process pending changes too; Linux has no run loop whose
    /// events end, so nothing else does.
    public func processPendingChanges() { modelContext?.processPendingChanges() }
}
