import Foundation

// `@Query var workouts: [Workout]`: the attached macro stores a ``Query`` in `_workouts` and
// reads `workouts` through it, taking the model type from the declared type (a property
// wrapper cannot infer it). The arguments are those of the ``Query`` initializers.
//
// ```swift
// @Query(sort: \Workout.startedAt, order: .reverse) var workouts: [Workout]
// // expands to
// var workouts: [Workout] { get { _workouts.wrappedValue } }
// @ObservationIgnored private var _workouts: Cairn.Query<Workout, [Workout]> =
//     Cairn.Query<Workout, [Workout]>(sort: \Workout.startedAt, order: .reverse)
// ```
//
// In an `@Observable` class: `@Query(…) @ObservationIgnored var workouts: [Workout]`, in that
// order (see ``Query``).

/// A live query of every model of the property's type, in store order.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query() = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A live query with a filter and sort descriptors.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel>(
    filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [],
    modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A live query with a filter, sorted by one key path.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel, Value: Comparable>(
    filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
    modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A live query with a filter, sorted by one optional key path.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel, Value: Comparable>(
    filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
    modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A live query of a prepared descriptor.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel>(_ descriptor: FetchDescriptor<Element>, modelContext: ModelContext? = nil) =
    #externalMacro(module: "CairnMacros", type: "QueryMacro")

// Sectioned queries (iOS 27): each shape again with `sectionBy:` a `String` or `String?` key
// path, for a property of type `SectionedResults<Model, String>`; `nil` keys share the ""
// section.
//
// ```swift
// @Query(sort: \Workout.startedAt, sectionBy: \Workout.title) var byTitle: SectionedResults<Workout, String>
// ```

/// A sectioned live query with a filter and sort descriptors (iOS 27): `var x: SectionedResults<Model, String>`.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel>(
    filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [],
    sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable, modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A sectioned live query with a filter and sort descriptors (iOS 27): `var x: SectionedResults<Model, String>`. `nil` keys share the "" section.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel>(
    filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [],
    sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A sectioned live query sorted by one key path.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel, Value: Comparable>(
    filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
    sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable, modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A sectioned live query sorted by one key path. `nil` keys share the "" section.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel, Value: Comparable>(
    filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
    sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A sectioned live query sorted by one optional key path.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel, Value: Comparable>(
    filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
    sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable, modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A sectioned live query sorted by one optional key path. `nil` keys share the "" section.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel, Value: Comparable>(
    filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
    sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A sectioned live query of a prepared descriptor.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel>(
    _ descriptor: FetchDescriptor<Element>, sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable, modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")

/// A sectioned live query of a prepared descriptor. `nil` keys share the "" section.
@attached(accessor, names: named(get))
@attached(peer, names: prefixed(_))
public macro Query<Element: PersistentModel>(
    _ descriptor: FetchDescriptor<Element>, sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext? = nil
) = #externalMacro(module: "CairnMacros", type: "QueryMacro")
