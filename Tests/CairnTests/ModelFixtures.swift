import Cairn

// The seed's model, unchanged (000_e7396fd64d4b5600.txt).
@Model
final class Workout {
    var title: String
    var startedAt: Date
    var finishedAt: Date?
    var minutes: Int
    var calories: Double
    var isFavorite: Bool = false

    init(title: String, startedAt: Date, minutes: Int, calories: Double) {
        self.title = title
        self.startedAt = startedAt
        self.minutes = minutes
        self.calories = calories
    }
}
