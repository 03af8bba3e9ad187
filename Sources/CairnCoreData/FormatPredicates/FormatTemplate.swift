import Foundation

/// A parsed format with a placeholder where each specifier (`%@`, `%K`, `%lld`, `%2$@`…)
/// stands: what ``FormatPredicateParser/parse(_:arguments:validating:)`` keeps for a format
/// text, so that `NSPredicate(format: "id == %lld", key)` written in a loop lexes and parses its
/// text once and then only puts each call's arguments in.
///
/// Filling the placeholders in converts each argument exactly as a parse does (the same
/// function, with the specifier's offset for errors) and rebuilds what the parser builds
/// around an argument: a key path continued after it (`%K.name`), and a `{…}` list that is one
/// constant once its elements are. The tree is then equal to a fresh parse's. A format whose
/// parse looks further into an argument gets no template and is parsed every time: a `CAST`
/// of an argument (converted while parsing), `.%K` after a key, an argument as a `FUNCTION`
/// selector or `CAST` type. An argument that cannot be used also parses afresh, so the error
/// is the parse's own.
struct FormatTemplate: Sendable {
    /// One specifier: its conversion letters, the argument it takes, and where it is written.
    struct Slot: Sendable {
        let letters: String
        let argument: Int
        let offset: Int
    }

    /// The parsed tree, with ``placeholder(_:)`` for the specifiers.
    let tree: FormatPredicate
    /// The specifiers, by placeholder index.
    let slots: [Slot]

    /// The templates of the formats parsed so far.
    static let cache = FormatTemplateCache(capacity: 256)

    /// The stand-in for specifier `index`: a variable whose name no format can spell (the
    /// lexer's names never start with `%`).
    static func placeholder(_ index: Int) -> FormatExpression { .variable("%" + String(index)) }

    /// The specifier a placeholder stands for, or `nil` for any other variable.
    static func slotIndex(_ name: String) -> Int? {
        var bytes = name.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "%"), var index = bytes.next().map({ Int($0) - 48 }), (0...9).contains(index)
        else { return nil }
        while let byte = bytes.next() {
            guard (48...57).contains(byte), index < Int.max / 10 - 9 else { return nil }
            index = index * 10 + Int(byte) - 48
        }
        return index
    }

    /// The template of `format`, or `nil` when it does not parse or its parse looks into an
    /// argument (see the type's summary).
    static func make(_ format: String) -> FormatTemplate? {
        do {
            var parser = try FormatPredicateParser(format: format, arguments: [])
            parser.recordsSlots = true
            let tree = try parser.parseOr()
            try parser.expectEnd()
            guard parser.slotsStandAlone else { return nil }
            return FormatTemplate(tree: tree, slots: parser.slots)
        } catch {
            return nil
        }
    }

    /// The tree with `arguments` put in, or `nil` when one of them cannot be used (a fresh
    /// parse then reports it).
    func filled(with arguments: [Any?], format: String) -> FormatPredicate? {
        if slots.isEmpty { return tree }
        let filling = Filling(slots: slots, arguments: arguments, format: format)
        return try? filling.predicate(tree)
    }
}

/// One pass putting arguments into a template's tree.
private struct Filling {
    let slots: [FormatTemplate.Slot]
    let arguments: [Any?]
    let format: String

    /// What the specifier behind `name` stands for, or `nil` when `name` is no placeholder.
    func argument(_ name: String) throws -> FormatExpression? {
        guard let index = FormatTemplate.slotIndex(name), index < slots.count else { return nil }
        let slot = slots[index]
        return try FormatPredicateParser.argument(slot.letters, slot.argument, of: arguments, format: format, offset: slot.offset)
    }

    func predicate(_ predicate: FormatPredicate) throws -> FormatPredicate {
        switch predicate {
        case .constant:
            return predicate
        case .and(let operands):
            return .and(try operands.map(self.predicate))
        case .or(let operands):
            return .or(try operands.map(self.predicate))
        case .not(let operand):
            return .not(try self.predicate(operand))
        case .comparison(var comparison):
            comparison.lhs = try expression(comparison.lhs)
            comparison.rhs = try expression(comparison.rhs)
            return .comparison(comparison)
        }
    }

    func expression(_ expression: FormatExpression) throws -> FormatExpression {
        switch expression {
        case .constant, .evaluatedObject, .keyPath(.evaluatedObject, _):
            // No placeholder inside: the node is kept, not rebuilt.
            return expression
        case .variable(let name):
            return try argument(name) ?? expression
        case .keyPath(let base, let path):
            // The parser continues a key path it reads (`%K.name` is one path).
            if case .variable(let name) = base, let value = try argument(name) {
                if case .keyPath(let root, let head) = value { return .keyPath(base: root, path: head + path) }
                return .keyPath(base: value, path: path)
            }
            return .keyPath(base: try self.expression(base), path: path)
        case .index(let base, let index):
            if case .expression(let inner) = index {
                return .index(try self.expression(base), .expression(try self.expression(inner)))
            }
            return .index(try self.expression(base), index)
        case .aggregate(let elements):
            // The parser makes a list of constants one constant.
            let filled = try elements.map(self.expression)
            var values: [FormatValue] = []
            for element in filled {
                guard case .constant(let value) = element else { return .aggregate(filled) }
                values.append(value)
            }
            return .constant(.array(values))
        case .arithmetic(let op, let lhs, let rhs):
            return .arithmetic(op, try self.expression(lhs), try self.expression(rhs))
        case .negate(let operand):
            return .negate(try self.expression(operand))
        case .function(let function, let arguments):
            return .function(function, try arguments.map(self.expression))
        case .customFunction(let receiver, let selector, let arguments):
            return .customFunction(
                receiver: try self.expression(receiver), selector: selector, arguments: try arguments.map(self.expression))
        case .cast(let value, let type):
            return .cast(try self.expression(value), type: type)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(collection: try self.expression(collection), variable: variable, predicate: try self.predicate(predicate))
        }
    }
}

/// The templates of the format texts parsed so far, shared by every thread; at most
/// `capacity`, after which it starts over (a program has few format texts, unless it builds
/// them with its values in, which a template would not help).
final class FormatTemplateCache: @unchecked Sendable {
    // @unchecked Sendable: `templates` and `recent` are only touched while holding `lock`, and
    // a template is an immutable value.
    private let lock = NSLock()
    /// By format text; `nil` for a format that gets no template.
    private var templates: [String: FormatTemplate?] = [:]
    /// The format looked up last, compared before the text is hashed: a loop parses one format.
    private var recent: (format: String, template: FormatTemplate?)?
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The template of `format`, made on its first use.
    func template(for format: String) -> FormatTemplate? {
        #if CAIRN_FUZZ
        // LeakSanitizer does not follow the pointers Swift keeps with tag bits in an enum's
        // payload, so the fuzzer's leak check would call every kept tree leaked: under the
        // fuzzer each template is made afresh (still exercised) and kept nowhere.
        return FormatTemplate.make(format)
        #else
        return cachedTemplate(for: format)
        #endif
    }

    private func cachedTemplate(for format: String) -> FormatTemplate? {
        lock.lock()
        if let recent, recent.format == format {
            lock.unlock()
            return recent.template
        }
        if let known = templates[format] {
            recent = (format, known)
            lock.unlock()
            return known
        }
        lock.unlock()
        let made = FormatTemplate.make(format)
        lock.lock()
        if templates.count >= capacity { templates.removeAll(keepingCapacity: true) }
        templates[format] = .some(made)
        recent = (format, made)
        lock.unlock()
        return made
    }

    /// Whether `format` was parsed before and its template (or that it has none) is kept: a
    /// test's window on the cache.
    func holds(_ format: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return templates[format] != nil
    }
}
