// `import CoreData` on Linux: Core Data's query language as Cairn implements it, so code written
// for Apple's Core Data (`import Foundation` + `import CoreData`) compiles unchanged. Apple
// platforms have their own CoreData module, which would clash with this one; there, import
// CairnCoreData instead.
@_exported import CairnCoreData
