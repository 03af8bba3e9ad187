@testable import Cairn
import Foundation
import Testing

/// The attribute types a store records for tools that read it without the model types: each
/// as `AttributeCodec` stores it.
@Suite("The schema a store records")
struct StoredSchemaRecordTests {
    enum Level: Int, Codable { case low, high }
    enum Mood: String, Codable { case calm }
    struct Point: Codable { var x: Double }

    @Test("each attribute type has the name of what its column holds")
    func typeNames() {
        let cases: [(type: any Any.Type, name: String)] = [
            (Int.self, "integer"), (Int64?.self, "integer"), (UInt8.self, "integer"),
            (Double.self, "double"), (Float?.self, "double"), (Bool.self, "bool"), (String.self, "string"),
            (Date?.self, "date"), (Data.self, "binary"), (UUID.self, "uuid"), (URL.self, "uri"), (Decimal.self, "decimal"),
            (Level.self, "integer"), (Mood?.self, "string"), (Point.self, "json"), ([String].self, "json"),
        ]
        for (type, name) in cases {
            #expect(StoredSchemaRecord.typeName(type) == name, "\(type)")
        }
    }
}
