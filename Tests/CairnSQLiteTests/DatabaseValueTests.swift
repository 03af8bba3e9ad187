import CairnSQLite
import Foundation
import Testing

@Suite struct DatabaseValueTests {
    @Test func descriptionQuotesText() {
        #expect(DatabaseValue.text("it's").description == "'it''s'")
        #expect(DatabaseValue.blob(Data([0, 255])).description == "x'00ff'")
        #expect(DatabaseValue.null.isNull)
        #expect(!DatabaseValue.integer(0).isNull)
    }
}
