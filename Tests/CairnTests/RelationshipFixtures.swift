import Cairn

@Model
final class Trip {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Item.trip) var items: [Item] = []
    var tags: [Tag] = []

    init(name: String) { self.name = name }
}

@Model
final class Item {
    var title: String
    var trip: Trip?

    init(title: String, trip: Trip? = nil) {
        self.title = title
        self.trip = trip
    }
}

@Model
final class Tag {
    var name: String
    var trips: [Trip] = []

    init(name: String) { self.name = name }
}

@Model
final class Owner {
    var name: String
    @Relationship(deleteRule: .deny) var pets: [Pet] = []

    init(name: String) { self.name = name }
}

@Model
final class Pet {
    var name: String
    var owner: Owner?

    init(name: String, owner: Owner? = nil) {
        self.name = name
        self.owner = owner
    }
}

@Model
final class Folder {
    var name: String
    var notes: [Note] = []

    init(name: String) { self.name = name }
}

@Model
final class Note {
    var text: String
    @Relationship(deleteRule: .noAction) var folder: Folder?

    init(text: String, folder: Folder? = nil) {
        self.text = text
        self.folder = folder
    }
}

@Model
final class Team {
    var name: String
    @Relationship(minimumModelCount: 1, maximumModelCount: 2) var players: [Player] = []

    init(name: String) { self.name = name }
}

@Model
final class Player {
    var name: String
    var team: Team?

    init(name: String) { self.name = name }
}
