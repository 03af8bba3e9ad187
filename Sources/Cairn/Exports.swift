@_exported import CairnPostgres
@_exported import CairnQuery
@_exported import Foundation
@_exported import Observation
