// `import StructuredQueries`: the typed SQL builder (`@Table`, `@Selection`, `#sql`, `where`,
// `order`, `group`, `join`, `select`, `insert`, `update`, `delete`) under the module name that
// code written for Point-Free's swift-structured-queries imports.
@_exported import Cairn

/// A whole statement whose rows decode as `QueryValue`, under swift-structured-queries' name
/// (``QueryStatement``): the `Statement` of files that import `StructuredQueries`,
/// `StructuredQueriesSQLite` or `SQLiteData` (which re-export this module), since `Cairn` does
/// not export the engine's prepared statement (`CairnSQLite.Statement`).
public typealias Statement = QueryStatement
