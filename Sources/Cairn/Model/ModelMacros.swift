/// Makes a class a stored, observable model: a ``PersistentModel``.
///
/// Every stored `var` of the class is persisted (a column of the entity's table) unless it is
/// marked `@Transient`; properties whose type is another model are relationships.
///
/// ```swift
/// @Model
/// final class Workout {
///     var title: String
///     var startedAt: Date
///     var finishedAt: Date?
///     var minutes: Int
///     var calories: Double
///     var isFavorite: Bool = false
///
///     init(title: String, startedAt: Date, minutes: Int, calories: Double) { … }
/// }
/// // CREATE TABLE "Workout" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL,
/// //   "startedAt" REAL NOT NULL, "finishedAt" REAL, "minutes" INTEGER NOT NULL,
/// //   "calories" REAL NOT NULL, "isFavorite" INTEGER NOT NULL DEFAULT 0)
/// ```
///
/// A property whose type cannot be stored (a function, a tuple, `Any`, a type that is neither
/// `Codable` nor a model) is a compile-time error on that property. The code the macro
/// writes, which a model may also write by hand, is shown on ``PersistentModel``.
///
/// The model is also a typed-SQL ``Table`` whose columns are its stored attributes, for
/// queries and aggregates SwiftData lacks (values and aggregates only; see `Docs/TypedSQL.md`):
///
/// ```swift
/// try container.read(for: Workout.self) { db in
///     try Workout.where { $0.minutes.gte(30) }.select { $0.calories.sum() }.fetchOne(db)
/// }
/// // SELECT sum("Workout"."calories") FROM "Workout" WHERE ("Workout"."minutes" >= ?)
/// ```
@attached(
    member,
    names: named(_$backingData), named(persistentBackingData), named(schemaMetadata), named(init),
    named(_$observationRegistrar), named(_SwiftDataNoType), named(access), named(withMutation),
    named(_$makeFetched), named(_$storage), named(_$superentityType), named(_$PersistentRoot))
@attached(memberAttribute)
@attached(
    extension, conformances: PersistentModel, Observable, Hashable, _ModelMetatype, Table,
    names: named(TableColumns), named(columns), named(tableName), named(columnWidth), named(decode(from:)))
public macro Model(_ flavor: _ModelFlavor = .typedSQL) = #externalMacro(module: "CairnMacros", type: "ModelMacro")

/// A model type's metatype may cross actors (Cairn hands `Workout.self` to contexts on any
/// actor). `@Model` states it, so that under Swift 6.2's default main-actor isolation the class
/// is inferred `nonisolated`, as `SendableMetatype` makes a type; its members that Cairn uses
/// are `nonisolated` either way.
public protocol _ModelMetatype: SendableMetatype {}

/// What distinguishes Cairn's `@Model` (which may add typed SQL's `Table`) from `import
/// SwiftData`'s, which has no parameter and so wins where both are visible (see
/// `SwiftData.Model`). Never written.
public enum _ModelFlavor: Sendable {
    /// A final model is also a typed-SQL `Table`.
    case typedSQL
}

/// Written by `@Model` on each persisted property: accessors through the backing data.
/// `slot` is the property's position among the persisted ones (its place in `schemaMetadata`),
/// which lets the getter read a fetched row's value without looking its key path up.
/// `storage` names the zero-size stored peer when the class declares `_name` itself (`_$name`).
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_), prefixed(_$), prefixed(_$keyPath_))
public macro _PersistedProperty(slot: Int = -1, storage: String = "") = #externalMacro(module: "CairnMacros", type: "_PersistedPropertyMacro")

/// Marks a property of a `@Model` class that is not persisted. It needs a default value.
///
/// ```swift
/// @Transient var isExpanded = false
/// ```
@attached(peer)
public macro Transient() = #externalMacro(module: "CairnMacros", type: "TransientMacro")

/// Options for how an attribute is stored.
///
/// ```swift
/// @Attribute(.unique) var email: String
/// // CREATE UNIQUE INDEX "Person_email_unique" ON "Person"("email")
/// @Attribute(originalName: "name") var title: String   // renamed from "name"
/// ```
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil
) = #externalMacro(module: "CairnMacros", type: "AttributeMacro")

/// Options for a relationship: delete rule, inverse, counts.
///
/// ```swift
/// @Relationship(deleteRule: .cascade, inverse: \Item.trip) var items: [Item] = []
/// ```
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: AnyKeyPath? = nil, hashModifier: String? = nil
) = #externalMacro(module: "CairnMacros", type: "RelationshipMacro")

/// Properties whose values must be unique together, written inside a `@Model` class.
///
/// ```swift
/// #Unique<Person>([\.email], [\.givenName, \.familyName])
/// // CREATE UNIQUE INDEX "Person_email_unique" ON "Person"("email")
/// // CREATE UNIQUE INDEX "Person_givenName_familyName_unique" ON "Person"("givenName", "familyName")
/// ```
@freestanding(declaration, names: named(_$uniquenessConstraints))
public macro Unique<T: PersistentModel>(_ constraints: [PartialKeyPath<T>]...) =
    #externalMacro(module: "CairnMacros", type: "UniqueMacro")

/// Indexes over properties, written inside a `@Model` class.
///
/// ```swift
/// #Index<Workout>([\.startedAt], [\.title, \.minutes])
/// // CREATE INDEX "Workout_startedAt" ON "Workout"("startedAt")
/// // CREATE INDEX "Workout_title_minutes" ON "Workout"("title", "minutes")
/// ```
@freestanding(declaration, names: named(_$indices))
public macro Index<T: PersistentModel>(_ indices: [PartialKeyPath<T>]...) =
    #externalMacro(module: "CairnMacros", type: "IndexMacro")

/// Indexes of the given kinds (`.binary`, `.rtree`), written inside a `@Model` class.
@freestanding(declaration, names: named(_$indices))
public macro Index<T: PersistentModel>(_ indices: Schema.Index<T>.Types<T>...) =
    #externalMacro(module: "CairnMacros", type: "IndexMacro")
