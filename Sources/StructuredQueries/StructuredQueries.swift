// `import StructuredQueries`: the typed SQL builder (`@Table`, `@Selection`, `#sql`, `where`,
// `order`, `group`, `join`, `select`, `insert`, `update`, `delete`) under the module name that
// code written for Point-Free's swift-structured-queries imports.
@_exported import Cairn
