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
    /// The container's open stores, not the container: models left behind keep the stores
    /// open, so what they had not loaded still loads. (The container itself would close a
    /// cycle: it keeps its main context, which keeps its models.) `nil` for the link of models
    /// that may be held in a cycle (``forModelsHoldingRelatedModels()``).
    private let state: ContainerState?
    /// The container, weakly: how such models load while it lives.
    private weak var container: ModelContainer?
    /// Made on first need after the context is gone, then kept, so that related models loaded
    /// for the models left behind are one instance per row among them too.
    private var detached: ModelContext?

    init(container: ModelContainer) {
        state = container.state
        self.container = container
    }

    private init(weaklyTo container: ModelContainer?) {
        state = nil
        self.container = container
    }

    /// The link for the models of a context that went away leaving some still holding related
    /// models (unsaved changes, models not saved yet): those may hold each other, and whatever
    /// they reach, in a cycle that nothing breaks, and must not keep the stores open with them.
    /// The models load what they had not loaded while the container lives; afterwards it reads
    /// as its empty value.
    func forModelsHoldingRelatedModels() -> ContextLink {
        ContextLink(weaklyTo: container)
    }

    /// A context of the same stores for loading the values of models whose context is gone;
    /// `nil` while the context lives, and for the models of a weak link once the container
    /// is gone.
    var detachedContext: ModelContext? {
        guard context == nil else { return nil }
        if let detached { return detached }
        let made: ModelContext
        if let state {
            made = ModelContext(ModelContainer(state: state))
        } else if let container {
            made = ModelContext(container)
        } else {
            return nil
        }
        detached = made
        return made
    }
}
