@_exported import CairnQuery
@_exported import CairnSQLite

/// Marks a property of a `@Model` class that is not persisted.
@attached(peer)
public macro Transient() = #externalMacro(module: "CairnMacros", type: "TransientMacro")
