@_exported import Cairn
// Re-exported so that a file can write `import CairnCoreData` in place of `import Foundation`
// and `import CoreData`: Swift lets this module's `NSPredicate`, `NSCompoundPredicate` and
// `NSSortDescriptor` shadow Foundation's only when the file reaches Foundation through this
// module. A file that also imports Foundation directly finds both classes, and type
// annotations become ambiguous; such a file adds `import class CairnCoreData.NSPredicate`
// (and the same for the other classes it names).
@_exported import Foundation
