@_exported import Cairn
// Re-exported so that `import CairnCoreData` (or `import CoreData`, the module that re-exports
// this one on Linux) is enough for `NSPredicate(format:)` and `NSSortDescriptor(key:ascending:)`:
// both are Foundation's own classes, which this module extends.
@_exported import Foundation
