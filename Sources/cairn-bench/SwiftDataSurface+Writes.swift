import Cairn
import Foundation

/// W11-W13 on the models, shared by the SwiftData and Core Data surfaces: each surface passes
/// its own spelling of the fetches and the delete; the rest (mutate the models, `save()`) is
/// the same code in both. The checksums read the rows back through a new context after the
/// clock, so they count what reached the store.
struct ModelWrites {
    /// The models of a key range, in a context.
    var fetchRange: (ModelContext, ClosedRange<Int64>) throws -> [ModelWorkout]
    /// The model with a key, in a context.
    var fetchOne: (ModelContext, Int64) throws -> ModelWorkout?
    /// Marks the models of a key range deleted in a context (the save follows).
    var deleteRange: (ModelContext, ClosedRange<Int64>) throws -> Void

    /// Times W11-W13. W11's and W12's contexts are returned, so that their models are freed
    /// after the clock, as C frees its rows after timing.
    func measure(_ m: inout Measurements, container: ModelContainer) throws {
        try m.measure(11, {
            let context = ModelContext(container)
            for w in try fetchRange(context, Workload.updatedKeys) {
                w.minutes += 1
                w.calories += 0.5
            }
            try context.save()
            return context
        }, checksum: { _ in
            try Self.readBack(container, Workload.updatedKeys).reduce(0) {
                $0 + Workload.checksumW11(minutes: $1.minutes, calories: $1.calories)
            }
        })

        try m.measure(12, {
            let context = ModelContext(container)
            try deleteRange(context, Workload.deletedKeys)
            try context.save()
            return context
        }, checksum: { _ in
            let context = ModelContext(container)
            return Workload.checksumW12(
                remaining: try context.fetchCount(Self.descriptor(1...Int64(Workload.rowCount))),
                leftInDeletedRange: try context.fetchCount(Self.descriptor(Workload.deletedKeys)))
        })

        // A web request's shape: a new context per request, one model fetched by key,
        // changed and saved; the context ends with the request.
        try m.measure(13, {
            for k in 0..<Workload.requestKeys.count {
                let context = ModelContext(container)
                guard let w = try fetchOne(context, Workload.requestKey(k)) else { continue }
                w.minutes += 1
                try context.save()
            }
        }, checksum: { _ in
            try Self.readBack(container, Workload.requestKeys).reduce(0) { $0 + $1.minutes }
        })
    }

    /// The models of a key range as a `FetchDescriptor` selects them.
    static func descriptor(_ keys: ClosedRange<Int64>) -> FetchDescriptor<ModelWorkout> {
        let first = keys.lowerBound, last = keys.upperBound
        return FetchDescriptor<ModelWorkout>(predicate: #Predicate { $0.id >= first && $0.id <= last })
    }

    private static func readBack(_ container: ModelContainer, _ keys: ClosedRange<Int64>) throws -> [ModelWorkout] {
        try ModelContext(container).fetch(descriptor(keys))
    }
}
