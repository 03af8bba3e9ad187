/// What a fetch can return: a model, a model's identifier, and in `CairnCoreData` a dictionary
/// of values (`NSDictionary`) or a count (`NSNumber`).
///
/// `CairnCoreData` names it `NSFetchRequestResult`, Core Data's protocol, so that a request
/// typed `NSFetchRequest<NSFetchRequestResult>` (`let request: NSFetchRequest<NSFetchRequestResult>
/// = Expense.fetchRequest()`) can hold any of these: every model conforms, through
/// ``PersistentModel``. It has no requirements.
public protocol FetchRequestResult {}

extension PersistentIdentifier: FetchRequestResult {}
