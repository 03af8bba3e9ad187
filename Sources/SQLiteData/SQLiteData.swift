// `import SQLiteData`: the typed SQL builder, `DatabaseQueue`/`DatabasePool`,
// `defaultDatabase()` and the live `@FetchAll`, `@FetchOne` and `@Fetch`, under the module name
// that code written for Point-Free's sqlite-data imports.
@_exported import Cairn
@_exported import StructuredQueries

/// A whole statement whose rows decode as `QueryValue` (``QueryStatement``), named as
/// swift-structured-queries names it; declared here too because a name re-exported from
/// `StructuredQueries` does not hide the engine's prepared statement that `Cairn` re-exports.
public typealias Statement = QueryStatement
