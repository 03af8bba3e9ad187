/// What a storage's `deinit` assumes of how Swift lays out a ``ModelStorage/Slot``, checked
/// once per process: that a slot holding text (`.primitive(.string)` or
/// `.primitive(.optionalString)`) begins with the `String` or `String?` itself, as Swift lays
/// out the payloads of enums with several (at offset 0, the case in spare or extra bits).
/// The deinit then releases a text value in place; if a compiler ever laid a slot out
/// otherwise, this answers `false` and every slot is destroyed through its value witness,
/// which is slower and always right.
enum SlotLayout {
    static let textAtStart: Bool = {
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
