import Observation
import Synchronization

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
/// makes its registrar on its first read, tracked or not.
///
/// The registrar is set on first use without a lock, like the rest of a model's state: a
/// model belongs to one context and is not `Sendable`; two threads reading one model for the
/// first time under tracking, at once, could each make one.
public struct _ModelObservationRegistrar: Sendable {
    /// The registrar, boxed: `ObservationRegistrar` is a resilient type, so an Optional of it
    /// is tested and copied through value witnesses (about 150 instructions a read, callgrind
    /// W6), where a nil reference is one compare.
    @usableFromInline
    var box: RegistrarBox?

    @inlinable
    public init() {}

    /// Whether the model has a registrar yet (for tests).
    public var isMade: Bool { box != nil }

    /// `ObservationRegistrar.access`, through the registrar, which a tracked read makes. The
    /// key path is made only when a registrar is told of the read.
    @inlinable
    public mutating func access<Subject: Observable, Member>(
        _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>
    ) {
        if let box {
            box.registrar.access(subject, keyPath: keyPath())
        } else if observationIsTracking() {
            let made = RegistrarBox()
            box = made
            made.registrar.access(subject, keyPath: keyPath())
        }
    }

    /// `ObservationRegistrar.withMutation`, or just the mutation when the model has no
    /// registrar (no observer can have been registered with it); the key path is made only
    /// in the first case.
    @inlinable
    public func withMutation<Subject: Observable, Member, T>(
        of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>, _ mutation: () throws -> T
    ) rethrows -> T {
        guard let box else { return try mutation() }
        return try box.registrar.withMutation(of: subject, keyPath: keyPath(), mutation)
    }
}

/// A model's `ObservationRegistrar`, once made.
@usableFromInline
final class RegistrarBox: Sendable {
    @usableFromInline
    let registrar = ObservationRegistrar()

    @usableFromInline
    init() {}
}

/// Tells whether the current thread is inside observation tracking (see
/// ``_ModelObservationRegistrar``).
/// Internal: `_ModelObservationRegistrar.access`, inlined into models, calls
/// ``observationIsTracking()``.
@usableFromInline
enum ObservationProbe {
    /// The subject of the probe's reads; it has no state.
    final class Subject: Observable, Sendable {
        subscript(probe index: Index) -> Int { 0 }
    }

    /// A key-path subscript index that counts how often it is hashed. All indexes are equal,
    /// so the probe's key path is one entry in an access list however often it is read.
    struct Index: Hashable, Sendable {
        static func == (lhs: Index, rhs: Index) -> Bool { true }
        func hash(into hasher: inout Hasher) {
            ObservationProbe.hashes.wrappingAdd(1, ordering: .relaxed)
            hasher.combine(0)
        }
    }

    /// How often any thread has hashed the probe's index: one count for the process, not one
    /// per thread. A tracked read here always changes it (it only grows, and would have to
    /// wrap around 2^64 to come back). A tracked read on another thread at the same moment
    /// can make an untracked read here look tracked, which costs a registrar nobody needed,
    /// never a missed observer. A per-thread count (a POSIX thread-specific key) cost two
    /// `pthread_getspecific` calls a read; these loads are plain moves, and the constant
    /// initializer needs no `swift_once`.
    static let hashes = Atomic<UInt>(0)

    /// Everything a probe read uses, in one lazily made static (one `swift_once` a read).
    ///
    /// `@unchecked Sendable`: every field is a `let` set in `init`; the key path is an
    /// immutable object, kept with its concrete type so that a read calls `access` without
    /// opening an existential (`any KeyPath<Subject, Int> & Sendable` cost that on every read).
    final class Probe: @unchecked Sendable {
        let subject: Subject
        let keyPath: KeyPath<Subject, Int>
        /// Whether a tracked read of the probe is seen, checked once. If not, every call of
        /// ``isTracking()`` answers true, and models make their registrars on first read.
        /// (Only a tracked read is checked: the first probe may itself run inside someone's
        /// tracking, where no read is untracked, and a probe that saw untracked reads as
        /// tracked would only make registrars that are not needed.)
        let works: Bool
        /// Last: `ObservationRegistrar` is a resilient type whose size is known only at run
        /// time, so the fields after it are found through offsets loaded on every read.
        let registrar: ObservationRegistrar

        init() {
            let subject = Subject(), registrar = ObservationRegistrar(), keyPath = \Subject.[probe: Index()]
            works = withObservationTracking {
                Self.read(subject, registrar, keyPath)
            } onChange: {}
            (self.subject, self.registrar, self.keyPath) = (subject, registrar, keyPath)
        }

        /// One read of the probe: whether it was tracked.
        @inline(__always)
        func read() -> Bool { Self.read(subject, registrar, keyPath) }

        @inline(__always)
        private static func read(_ subject: Subject, _ registrar: ObservationRegistrar, _ keyPath: KeyPath<Subject, Int>) -> Bool {
            let before = hashes.load(ordering: .relaxed)
            registrar.access(subject, keyPath: keyPath)
            return hashes.load(ordering: .relaxed) != before
        }
    }

    static let probe = Probe()

    /// ``probe``, published for reads without a `swift_once` (a `static let` made by a
    /// function is reached through one on every read, and every model read outside tracking
    /// asks): nil until first asked, then the probe, which ``probe`` keeps alive.
    static let publishedProbe = Atomic<Unmanaged<Probe>?>(nil)

    /// Whether the probe works with this toolchain's Observation.
    static var works: Bool { probe.works }

    /// Whether a read on this thread now is tracked (true, to be safe, when the probe does
    /// not work on this Observation).
    static func isTracking() -> Bool { observationIsTracking() }
}

/// ``ObservationProbe/isTracking()``, as a free function for the models' inlined getters: a
/// static method's unused metatype argument made the optimizer compile it as a thunk that
/// jumps to a specialized copy, a few instructions more on every read.
@usableFromInline
func observationIsTracking() -> Bool {
    guard let published = ObservationProbe.publishedProbe.load(ordering: .acquiring) else {
        let probe = ObservationProbe.probe
        ObservationProbe.publishedProbe.store(Unmanaged.passUnretained(probe), ordering: .releasing)
        return probe.works ? probe.read() : true
    }
    return published._withUnsafeGuaranteedRef { probe in probe.works ? probe.read() : true }
}
