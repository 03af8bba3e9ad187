@_exported import CairnSQLite
