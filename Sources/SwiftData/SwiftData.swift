// `import SwiftData` on Linux: SwiftData's API as Cairn implements it (`@Model`,
// `ModelContainer`, `ModelContext`, `FetchDescriptor`, `#Predicate`, `@ModelActor`, `Query`), so
// code written for Apple's SwiftData compiles unchanged, `SwiftData.Schema` and other qualified
// names included. Apple platforms have their own SwiftData module, which would clash with this
// one; there, import Cairn instead.
@_exported import Cairn
