@testable import Cairn
import Testing

@Suite("A fetch's collector of made models")
struct ObjectCollectorTests {
    final class Made {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test("hands over every object, in order, past several growths, and keeps no reference")
    func handsOverInOrder() {
        weak var first: Made?
        var array: [Made]
        do {
            var collector = ObjectCollector(capacity: 0)
            for number in 0..<100 {
                let made = Made(number)
                if number == 0 { first = made }
                collector.append(made)
            }
            #expect(collector.count == 100)
            array = collector.array(of: Made.self)
        }
        #expect(array.map(\.number) == Array(0..<100))
        #expect(first != nil)
        // The array was the objects' only owner: emptied, it frees them.
        array.removeAll()
        #expect(first == nil)
    }

    @Test("an empty collector makes an empty array")
    func emptyCollector() {
        let collector = ObjectCollector(capacity: 5)
        #expect(collector.array(of: Made.self).isEmpty)
    }

    // A fetch that throws part way never asks for the array: the collector releases what it
    // holds when it goes out of scope.
    @Test("a collector dropped without its array releases every object it holds")
    func droppedCollectorReleases() {
        var watched: [() -> Made?] = []
        do {
            var collector = ObjectCollector(capacity: 2)
            for number in 0..<40 {
                let made = Made(number)
                weak let weakMade = made
                watched.append { weakMade }
                collector.append(made)
            }
            #expect(watched.allSatisfy { $0() != nil })
        }
        #expect(watched.allSatisfy { $0() == nil })
    }
}
