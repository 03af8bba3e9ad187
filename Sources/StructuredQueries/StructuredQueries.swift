// `import StructuredQueries`: the typed SQL builder (`@Table`, `@Selection`, `#sql`, `where`,
// `order`, `group`, `join`, `select`, `insert`, `update`, `delete`) under the module name that
// code written for Point-Free's swift-structured-queries imports.
@_exported import Cairn

/// A whole statement whose rows decode as `QueryValue`, under swift-structured-queries' name
/// (``QueryStatement``). Declared here, it is the `Statement` that files importing
/// `StructuredQueries` or `SQLiteData` see, rather than the engine's prepared statement.
public typealias Statement = QueryStatement
