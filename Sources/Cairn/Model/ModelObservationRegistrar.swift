import Observation

/// The observation registrar `@Model` gives a model: Observation's own `ObservationRegistrar`,
/// made on the model's first read.
///
/// Every read of a persisted property goes to `ObservationRegistrar.access` and every write
/// through `ObservationRegistrar.withMutation`, as Observation documents for a hand-written
/// `Observable` type. The one thing done differently is when the registrar is made: an
/// `ObservationRegistrar` is a few objects and a lock, about 500 instructions to make and as
/// many to free (callgrind), and a fetch makes a model per row. So the registrar is made by the
/// model's first `access`, not with the model. That changes nothing Observation can see:
/// observers are registered only through the registrar a tracked read names, so a model whose
/// properties were never read has no observer, and its writes have nobody to tell
/// (``withMutation(of:keyPath:_:)`` then just runs the mutation). A model fetched and dropped
/// unread never makes one.
///
/// The registrar is set on first use without a lock, like the rest of a model's state: a
/// model belongs to one context and is not `Sendable`; two threads reading one model for the
/// first time at once could each make one (a model read that way is already a data race).
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

    /// `ObservationRegistrar.access`, through the model's registrar, made on the first read.
    @inlinable
    public mutating func access<Subject: Observable, Member>(
        _ subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>
    ) {
        if let box {
            box.registrar.access(subject, keyPath: keyPath())
        } else {
            let made = RegistrarBox()
            box = made
            made.registrar.access(subject, keyPath: keyPath())
        }
    }

    /// `ObservationRegistrar.withMutation`, or just the mutation when the model has no
    /// registrar (it was never read, so no observer can have been registered with it); the
    /// key path is made only in the first case.
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
