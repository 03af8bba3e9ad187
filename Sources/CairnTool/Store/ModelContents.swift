import Foundation

/// The entities of an Xcode data model (`.xcdatamodeld`, `.xcdatamodel`, or its `contents`
/// file): the names and types a Core Data store was written from.
struct ModelContents: Sendable {
    struct Entity: Sendable {
        var name: String
        var parent: String?
        var attributes: [(name: String, type: ValueType)] = []
        var relationships: [Relationship] = []
    }

    struct Relationship: Sendable {
        let name: String
        let destination: String
        let isToMany: Bool
        let inverse: String?
    }

    var entities: [Entity]

    /// The entity and the properties it inherits, parents' first.
    func lineage(of name: String) -> [Entity] {
        var chain: [Entity] = []
        var next: String? = name
        while let current = next, let entity = entities.first(where: { $0.name == current }),
            !chain.contains(where: { $0.name == current })
        {
            chain.insert(entity, at: 0)
            next = entity.parent
        }
        return chain
    }

    /// Reads the model at `path`: a `contents` file, an `.xcdatamodel` folder, or an
    /// `.xcdatamodeld` folder (its current version, or its only one).
    static func read(_ path: String) throws(ToolError) -> ModelContents {
        let file = try contentsFile(path)
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            throw ToolError.failure("cannot read the model file \(file)")
        }
        let model = try parse(text, file: file)
        guard !model.entities.isEmpty else {
            throw ToolError.failure("\(file) declares no <entity>: it is not an Xcode data model's contents file")
        }
        return model
    }

    static func contentsFile(_ path: String) throws(ToolError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ToolError.failure("no model at \(path)")
        }
        guard isDirectory.boolValue else { return path }
        let url = URL(fileURLWithPath: path)
        if url.pathExtension == "xcdatamodeld" {
            let versions = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
                .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
            var current: String?
            if let data = FileManager.default.contents(atPath: url.appendingPathComponent(".xccurrentversion").path),
                let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            {
                current = plist["_XCCurrentVersionName"] as? String
            }
            guard let version = current ?? (versions.count == 1 ? versions[0] : nil) else {
                throw ToolError.failure(
                    "\(path) holds \(versions.count) model versions and no current one; name one: "
                        + versions.map { url.appendingPathComponent($0).path }.joined(separator: ", "))
            }
            return url.appendingPathComponent(version).appendingPathComponent("contents").path
        }
        return url.appendingPathComponent("contents").path
    }

    /// Reads the `<entity>`, `<attribute>` and `<relationship>` elements; everything else in
    /// the file (layout, fetch requests, configurations) is skipped.
    static func parse(_ text: String, file: String) throws(ToolError) -> ModelContents {
        var entities: [Entity] = []
        var current: Entity?
        var remaining = Substring(text)
        while let open = remaining.firstIndex(of: "<") {
            guard let close = remaining[open...].firstIndex(of: ">") else {
                throw ToolError.failure("\(file) is not well-formed XML: a '<' is never closed")
            }
            let tag = remaining[remaining.index(after: open)..<close]
            remaining = remaining[remaining.index(after: close)...]
            let closing = tag.hasPrefix("/")
            let name = (closing ? "/" : "") + tag.dropFirst(closing ? 1 : 0).prefix { !$0.isWhitespace && $0 != "/" }
            if name == "/entity", let entity = current {
                entities.append(entity)
                current = nil
                continue
            }
            let attributes = xmlAttributes(tag)
            switch name {
            case "entity":
                guard let entityName = attributes["name"] else { continue }
                current = Entity(name: entityName, parent: attributes["parentEntity"])
                if tag.hasSuffix("/") {
                    entities.append(Entity(name: entityName, parent: attributes["parentEntity"]))
                    current = nil
                }
            case "attribute":
                guard let attributeName = attributes["name"], attributes["transient"] != "YES" else { continue }
                current?.attributes.append((attributeName, valueType(attributes["attributeType"] ?? "")))
            case "relationship":
                guard let relationshipName = attributes["name"], attributes["transient"] != "YES",
                    let destination = attributes["destinationEntity"]
                else { continue }
                let toMany = attributes["toMany"] == "YES" && attributes["maxCount"] != "1"
                current?.relationships.append(
                    Relationship(name: relationshipName, destination: destination, isToMany: toMany, inverse: attributes["inverseName"]))
            default:
                continue
            }
        }
        return ModelContents(entities: entities)
    }

    /// `name="value"` pairs of a tag, with XML's five entities decoded.
    static func xmlAttributes(_ tag: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = tag
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
            let afterEquals = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = afterEquals.first, quote == "\"" || quote == "'" else { break }
            let valueStart = afterEquals.index(after: afterEquals.startIndex)
            guard let valueEnd = afterEquals[valueStart...].firstIndex(of: quote) else { break }
            result[key] = decodeEntities(afterEquals[valueStart..<valueEnd])
            rest = afterEquals[afterEquals.index(after: valueEnd)...]
        }
        return result
    }

    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The type an `attributeType` names.
    static func valueType(_ attributeType: String) -> ValueType {
        switch attributeType {
        case "Integer 16", "Integer 32", "Integer 64": .integer
        case "Double", "Float": .double
        case "Decimal": .decimal
        case "String": .string
        case "Boolean": .bool
        case "Date": .date
        case "Binary": .binary
        case "UUID": .uuid
        case "URI": .uri
        case "Transformable": .transformable
        default: .unknown
        }
    }
}
