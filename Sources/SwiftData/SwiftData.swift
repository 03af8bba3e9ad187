// `import SwiftData` on Linux: SwiftData's API as Cairn implements it (`@Model`,
// `ModelContainer`, `ModelContext`, `FetchDescriptor`, `#Predicate`, `@ModelActor`, `Query`), so
// code written for Apple's SwiftData compiles unchanged, `SwiftData.Schema` and other qualified
// names included. Apple platforms have their own SwiftData module, which would clash with this
// one; there, import Cairn instead.
@_exported import Cairn

/// SwiftData's `@Model`: Cairn's (see `Cairn.Model`), without the typed-SQL `Table`
/// conformance Cairn gives a final model, which SwiftData has no use for.
///
/// Without it, a model class may inherit from another, as in SwiftData:
///
/// ```swift
/// @Model class Article { var title: String; … }
/// @Model class Tutorial: Article { var difficulty: Int; … }
/// ```
///
/// Cairn's own `@Model` lists `Table` among the conformances it may add, and a non-final class
/// cannot take it; Swift 6.3's type checker then crashes on a subclass that is a `@Model` too
/// (swiftlang/swift#89151). This macro lists only what every model class takes.
@attached(
    member,
    names: named(_$backingData), named(persistentBackingData), named(schemaMetadata), named(init),
    named(_$observationRegistrar), named(_SwiftDataNoType), named(access), named(withMutation),
    named(_$makeFetched), named(_$storage), named(_$superentityType), named(_$PersistentRoot))
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel, Observable, Hashable, _ModelMetatype)
public macro Model() = #externalMacro(module: "CairnMacros", type: "ModelMacro")
