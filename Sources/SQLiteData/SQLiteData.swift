// `import SQLiteData`: the typed SQL builder, `DatabaseQueue`/`DatabasePool`,
// `defaultDatabase()` and the live `@FetchAll`, `@FetchOne` and `@Fetch`, under the module name
// that code written for Point-Free's sqlite-data imports.
@_exported import Cairn
@_exported import StructuredQueries
