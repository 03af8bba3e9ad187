import Cairn

enum Mood: String, Codable, CaseIterable { case calm, tense }
enum Level: Int, Codable { case low = 1, high = 2 }
struct Location: Codable, Hashable { var latitude: Double; var longitude: Double }
enum Shape: Codable, Hashable { case circle(radius: Double), square(side: Double) }

/// One property of every supported attribute type.
@Model
final class Sample {
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var bool: Bool
    var string: String
    var date: Date
    var data: Data
    var uuid: UUID
    var url: URL
    var decimal: Decimal
    var mood: Mood
    var level: Level
    var location: Location
    var shape: Shape
    var tags: [String]
    var dates: [Date]
    var moods: [Mood]
    var scores: [String: Int]
    var optionalInt: Int?
    var optionalString: String?
    var optionalDate: Date?
    var optionalLocation: Location?
    var optionalMood: Mood?
    var optionalTags: [String]?

    init() {
        int = -42
        int8 = -8
        int16 = 1600
        int32 = -32_000_000
        int64 = Int64.min + 1
        uint = 42
        uint8 = 255
        uint16 = 65_535
        uint32 = 4_000_000_000
        uint64 = UInt64(Int64.max)
        double = 3.141_592_653_589_793
        float = 2.5
        bool = true
        string = "Café ☕️ 'quoted' \"double\""
        date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        data = Data([0, 1, 2, 255])
        uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
        url = URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/")
        decimal = Decimal(string: "12345.678901234567890123") ?? 0
        mood = .tense
        level = .high
        location = Location(latitude: 48.85, longitude: 2.35)
        shape = .circle(radius: 2)
        tags = ["a", "b"]
        dates = [Date(timeIntervalSinceReferenceDate: 1)]
        moods = [.calm, .tense]
        scores = ["x": 1]
        optionalLocation = Location(latitude: 1, longitude: 2)
        optionalMood = .calm
    }
}

/// `.unique` on one attribute and `#Unique` on another: the first is the upsert key.
@Model
final class Account {
    #Unique<Account>([\.handle])
    #Index<Account>([\.name], [\.name, \.handle])

    @Attribute(.unique) var email: String
    var handle: String
    var name: String

    init(email: String, handle: String, name: String) {
        self.email = email
        self.handle = handle
        self.name = name
    }
}

/// A model with its own `id`, as many SwiftData apps declare.
@Model
final class Bookmark {
    @Attribute(.unique) var id: UUID
    var title: String

    init(id: UUID = UUID(), title: String) {
        self.id = id
        self.title = title
    }
}
