import CSQLite
import Observation

/// The observation registrar `@Model` gives a model: Observation's own `ObservationRegistrar`,
/// made the first time the model is read inside observation tracking
/// (`withObservationTracking`, `Observations`, SwiftUI's views).
///
/// An `ObservationRegistrar` is two objects and a mutex: about 500 instructions to make, and
/// as much to free, for every model a fetch makes (callgrind, W2), most of which are never
/// observed. Until a tracked read, no observer can be registered with the model (Observation
/// registers observers only with the registrars its tracked reads name), so a model without a
/// registrar has nobody to notify and its mutations skip `willSet`/`didSet`.
///
/// Observation does not export whether tracking is active. A read outside tracking does
/// nothing, and a tracked read adds the key path to the tracking's access list, which hashes
/// it; ``ObservationProbe`` reads through a key path whose subscript index notes when it is
/// hashed. The probe checks itself once, the first time it is asked: if a tracked read of the
/// probe is not seen (a future Observation that stores accesses differently), every model
/// makes its registrar eagerly, as Observation's own macro does.
public struct _ModelObservationRegistrar: Sendable {
    @usableFromInline
    var registrar: ObservationRegistrar?

    @inlinable
    public init() {}

    /// Whether the model has a registrar yet (for tests).
    public var isMade: Bool { registrar != nil }

    /// `ObservationRegistrar.access`, through the registrar, which a tracked read makes.
    @inlinable
    public mutating func access<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        if let registrar {
            registrar.access(subject, keyPath: keyPath)
        } else if ObservationProbe.isTracking() {
            let made = ObservationRegistrar()
            registrar = made
            made.access(subject, keyPath: keyPath)
        }
    }

    /// `ObservationRegistrar.withMutation`, or just the mutation when the model has no
    /// registrar (no observer can have been registered with it).
    @inlinable
    public func withMutation<Subject: Observable, Member, T>(
        of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> T
    ) rethrows -> T {
        guard let registrar else { return try mutation() }
        return try registrar.withMutation(of: subject, keyPath: keyPath, mutation)
    }
}

/// Tells whether the current thread is inside observation tracking (see
/// ``_ModelObservationRegistrar``).
public enum ObservationProbe {
    /// The subject of the probe's reads; it has no state.
    final class Subject: Observable, Sendable {
        subscript(probe index: Index) -> Int { 0 }
    }

    /// A key-path subscript index that counts, per thread, how often it is hashed. All
    /// indexes are equal, so the probe's key path is one entry in an access list however
    /// often it is read.
    struct Index: Hashable, Sendable {
        static func == (lhs: Index, rhs: Index) -> Bool { true }
        func hash(into hasher: inout Hasher) {
            cairn_observation_probe_hits().pointee &+= 1
            hasher.combine(0)
        }
    }

    private static let subject = Subject()
    private static let registrar = ObservationRegistrar()
    private static let keyPath = \Subject.[probe: Index()]

    /// Whether the probe sees a tracked read of itself, checked once. Without it, every call
    /// of ``isTracking()`` answers true, and models make their registrars on first read.
    static let works: Bool = {
        let seen = withObservationTracking { probe() } onChange: {}
        return seen && !probe()
    }()

    /// One read of the probe: whether it was tracked.
    private static func probe() -> Bool {
        let hits = cairn_observation_probe_hits()
        let before = hits.pointee
        registrar.access(subject, keyPath: keyPath)
        return hits.pointee != before
    }

    /// Whether a read on this thread now is tracked (true, to be safe, when the probe does
    /// not work on this Observation).
    @usableFromInline
    static func isTracking() -> Bool {
        guard works else { return true }
        return probe()
    }
}
