/// What a model's storage keeps of the context that tracks it: one object per context, shared
/// by every model the context makes or adopts.
///
/// A model can outlive its context (`try ModelContext(container).fetch(…)` returns models whose
/// context is already gone). Its unloaded properties (columns left out by `propertiesToFetch`,
/// relationships) must still read what the store holds, not an empty placeholder, so the link
/// also knows the container and, when the context is gone, loads through a context of that
/// container made for the purpose. SwiftData stops the program in that case; reading the store
/// gives the answer the model would have had.
final class ContextLink {
    /// The context; `nil` once it is gone.
    weak var context: ModelContext?
    /// Weak: the main context is owned by its container, and a strong reference from its
    /// models back to the container would keep both alive forever.
    private weak var container: ModelContainer?
    /// Made on first need after the context is gone, then kept, so that related models loaded
    /// for the models left behind are one instance per row among them too.
    private var detached: ModelContext?

    init(container: ModelContainer) {
        self.container = container
    }

    /// A context of the same container for loading the values of models whose context is
    /// gone; `nil` while the context lives, or once the container is gone too.
    var detachedContext: ModelContext? {
        guard context == nil else { return nil }
        if let detached { return detached }
        guard let container else { return nil }
        let made = ModelContext(container)
        detached = made
        return made
    }
}
