import Synchronization

/// What a storage's `deinit` assumes of how Swift lays out a ``ModelStorage/Slot``, checked
/// once per process: that a slot holding text (`.primitive(.string)` or
/// `.primitive(.optionalString)`) begins with the `String` or `String?` itself, as Swift lays
/// out the payloads of enums with several (at offset 0, the case in spare or extra bits).
/// The deinit then releases a text value in place; if a compiler ever laid a slot out
/// otherwise, this answers `false` and every slot is destroyed through its value witness,
/// which is slower and always right.
enum SlotLayout {
    /// The answer, read with one load: every storage's deinit asks, and a `static let` made by
    /// a closure is reached through a `swift_once` call on every read.
    static var textAtStart: Bool {
        switch published.load(ordering: .relaxed) {
        case 2: true
        case 1: false
        default: publish()
        }
    }

    /// 0 until the check has run, then 1 (no) or 2 (yes). A constant initial value needs no
    /// `swift_once`.
    private static let published = Atomic<UInt8>(0)

    private static func publish() -> Bool {
        let answer = checked
        published.store(answer ? 2 : 1, ordering: .relaxed)
        return answer
    }

    private static let checked: Bool = {
        let samples: [String?] = ["", "short", "a string too long to be kept inside the String itself", nil]
        for sample in samples {
            if let text = sample, !payloadMatches(.primitive(.string(text)), text) { return false }
            if !payloadMatches(.primitive(.optionalString(sample)), sample) { return false }
        }
        return true
    }()

    /// Whether the slot's first bytes are `payload`'s bytes.
    private static func payloadMatches<Payload>(_ slot: ModelStorage.Slot, _ payload: Payload) -> Bool {
        withUnsafeBytes(of: slot) { slotBytes in
            withUnsafeBytes(of: payload) { payloadBytes in
                slotBytes.count >= payloadBytes.count && slotBytes.prefix(payloadBytes.count).elementsEqual(payloadBytes)
            }
        }
    }
}
