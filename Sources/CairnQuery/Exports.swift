// The engine's types that the query layer, and the surfaces above it, take or return, type by
// type: not its prepared `Statement`, whose name code written for swift-structured-queries and
// SQLiteData uses for the protocol of whole statements (`some Statement<Row>`). Import
// `CairnSQLite` for it.
@_exported import enum CairnSQLite.BorrowedDatabaseValue
@_exported import struct CairnSQLite.BufferedRows
@_exported import struct CairnSQLite.ColumnInfo
@_exported import class CairnSQLite.CommitObservation
@_exported import struct CairnSQLite.Configuration
@_exported import class CairnSQLite.Database
@_exported import protocol CairnSQLite.DatabaseAggregate
@_exported import struct CairnSQLite.DatabaseCollation
@_exported import struct CairnSQLite.DatabaseError
@_exported import struct CairnSQLite.DatabaseFunction
@_exported import protocol CairnSQLite.DatabaseFunctionConvertible
@_exported import struct CairnSQLite.DatabaseJSON
@_exported import struct CairnSQLite.DatabaseMigrator
@_exported import struct CairnSQLite.DatabaseMigratorError
@_exported import class CairnSQLite.DatabasePool
@_exported import class CairnSQLite.DatabaseQueue
@_exported import protocol CairnSQLite.DatabaseReader
@_exported import enum CairnSQLite.DatabaseValue
@_exported import protocol CairnSQLite.DatabaseValueConvertible
@_exported import struct CairnSQLite.DatabaseValueEncodingError
@_exported import protocol CairnSQLite.DatabaseWriter
@_exported import class CairnSQLite.InterruptHandle
@_exported import protocol CairnSQLite.JSONDatabaseValueConvertible
@_exported import protocol CairnSQLite.LiveQueryDatabase
@_exported import struct CairnSQLite.ResultCode
@_exported import struct CairnSQLite.Row
@_exported import class CairnSQLite.RowCursor
@_exported import struct CairnSQLite.RowDecodingError
@_exported import typealias CairnSQLite.SQLiteStatement
@_exported import typealias CairnSQLite.SQLiteValue
@_exported import struct CairnSQLite.StatementArguments
@_exported import struct CairnSQLite.TraceEvent
@_exported import enum CairnSQLite.TransactionKind
