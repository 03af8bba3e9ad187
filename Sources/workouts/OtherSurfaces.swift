import Cairn
import CoreData
import Foundation

// The same store through the two other surfaces: Core Data's query language (a format
// predicate, a fetched-results controller that hears a save) and typed SQL (a report SwiftData
// cannot express: GROUP BY with HAVING). With --sql, each prints the SQL it ran.

extension Demo {
    func showCoreData(_ context: ModelContext) async throws {
        let request = NSFetchRequest<Workout>(entityName: "Workout")
        request.predicate = NSPredicate(format: "title CONTAINS[cd] %@ AND minutes >= %d", "RUN", 90)
        request.sortDescriptors = [NSSortDescriptor(key: "calories", ascending: false)]
        request.fetchLimit = 5
        let runs = try context.fetch(request)
        printTable("Core Data: runs of 90+ minutes, most calories first (NSFetchRequest)", header, runs.map(row),
                   note: "  predicate: \(request.predicate?.formatPredicate.predicateFormat ?? "")")
        try showSQL(of: context.explain(request))

        // A controller over the long rides, told by its delegate what a save changed.
        let rides = NSFetchRequest<Workout>(entityName: "Workout")
        rides.predicate = NSPredicate(format: "title BEGINSWITH %@ AND minutes >= 115", "Cycling")
        rides.sortDescriptors = [NSSortDescriptor(key: "startedAt", ascending: true)]
        let controller = NSFetchedResultsController(
            fetchRequest: rides, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        let changes = ChangeLog()
        controller.delegate = changes
        try controller.performFetch()
        let before = controller.fetchedObjects?.count ?? 0
        let ride = Workout(title: "Cycling #new", startedAt: now, minutes: 180, calories: 1_500)
        context.insert(ride)
        try context.save()
        for _ in 0..<1_000 where changes.calls.isEmpty { await Task.yield() }
        printTable("Core Data: NSFetchedResultsController over rides of 115+ minutes", ["", "value"], [
            ["results before the save", formatted(before)],
            ["results after saving one more", formatted(controller.fetchedObjects?.count ?? 0)],
            ["delegate calls", changes.calls.joined(separator: ", ")],
        ])
        context.delete(ride)
        try context.save()
    }

    func showTypedSQL(_ container: ModelContainer) throws {
        // Sessions by duration band (0–29 minutes, 30–59, …), bands with 100 sessions or more.
        let report = Workout
            .group { $0.minutes / 30 }
            .having { $0.count().gte(100) }
            .order { $0.minutes / 30 }
            .select { ($0.minutes / 30, $0.count(), $0.calories.avg(), $0.calories.max()) }
        let rows = try container.read(for: Workout.self) { db in try report.fetchAll(db) }
        printTable("Typed SQL: duration bands with 100+ sessions (group, having)",
                   ["minutes", "sessions", "avg kcal", "max kcal"],
                   rows.map { band, count, average, peak in
                       ["\(band * 30)–\(band * 30 + 29)", formatted(count), average.map { formatted($0) } ?? "—",
                        peak.map { formatted($0) } ?? "—"]
                   })
        if options.showSQL {
            let rendered = try report.render()
            printSQL(rendered.sql, arguments: rendered.arguments)
        }
    }

    func showSQL(of plan: QueryPlan) throws {
        guard options.showSQL else { return }
        printSQL(plan.sql, arguments: plan.arguments)
    }

    /// The SQL wrapped to the terminal's 80 columns, then its bound values.
    func printSQL(_ sql: String, arguments: [DatabaseValue]) {
        var line = "  SQL:"
        for word in sql.split(separator: " ") {
            if line.count + word.count + 1 > 78 {
                print(line)
                line = "      "
            }
            line += " " + word
        }
        print(line)
        if !arguments.isEmpty { print("  values: " + arguments.map(\.description).joined(separator: ", ")) }
    }
}

/// Records the delegate calls a controller makes, in order.
@MainActor
final class ChangeLog: NSFetchedResultsControllerDelegate {
    private(set) var calls: [String] = []

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        calls.append("willChange")
    }

    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any,
        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        switch type {
        case .insert: calls.append("insert at \(newIndexPath?.item ?? -1)")
        case .delete: calls.append("delete at \(indexPath?.item ?? -1)")
        case .move: calls.append("move")
        case .update: calls.append("update")
        @unknown default: calls.append("change")
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        calls.append("didChange")
    }
}
