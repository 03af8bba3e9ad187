// `import StructuredQueriesSQLite`: the typed SQL builder with SQLite's functions and
// `@DatabaseFunction`, under the module name that code written for Point-Free's
// swift-structured-queries imports for SQLite.
@_exported import Cairn
@_exported import StructuredQueries
