import Foundation

/// The command line of `swift run workouts`.
struct Options {
    enum SortKey: String, CaseIterable { case date, duration, title }

    var inMemory = false
    var path: String?
    var count = 5_000
    var sort = SortKey.date
    var search = "run"
    var showSQL = false
    var showHelp = false

    static let usage = """
        Usage: swift run workouts [options]

        Imports generated workout sessions into an embedded Cairn store on a @ModelActor, runs
        the SwiftData queries of the seed (query shapes, paging, sorting, sections, search,
        background counts, statistics, enumerate), then reads the same store through Core
        Data's query language (NSFetchRequest, NSFetchedResultsController) and typed SQL
        (group, having), and prints each as a table.

        Options:
          --in-memory        keep the store in memory (nothing is written to disk)
          --path <file>      the store file (default: a fresh file in the temporary folder)
          --count <n>        how many sessions to import (default 5,000)
          --sort <key>       sort key for the sorted list: date, duration or title (default date)
          --search <text>    the search filter's text (default "run")
          --sql              print the SQL of the paging, Core Data and typed SQL queries
          --help             show this help
        """

    /// Parses the arguments; a problem is a message for the user.
    static func parse(_ arguments: [String]) -> Result<Options, OptionsError> {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--in-memory": options.inMemory = true
            case "--sql": options.showSQL = true
            case "--help", "-h": options.showHelp = true
            case "--path":
                guard let value = iterator.next() else { return .failure(OptionsError("--path needs a file path")) }
                options.path = value
            case "--count":
                guard let value = iterator.next(), let count = Int(value), count >= 0 else {
                    return .failure(OptionsError("--count needs a number of sessions, like --count 5000"))
                }
                options.count = count
            case "--sort":
                guard let value = iterator.next(), let key = SortKey(rawValue: value) else {
                    return .failure(OptionsError("--sort needs one of: \(SortKey.allCases.map(\.rawValue).joined(separator: ", "))"))
                }
                options.sort = key
            case "--search":
                guard let value = iterator.next() else { return .failure(OptionsError("--search needs a text")) }
                options.search = value
            default:
                return .failure(OptionsError("unknown option '\(argument)'"))
            }
        }
        if options.inMemory, options.path != nil {
            return .failure(OptionsError("--in-memory and --path cannot be used together"))
        }
        return .success(options)
    }
}

struct OptionsError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
