/// The model Core Data caches in a store's `Z_MODELCACHE`: a keyed archive of the
/// `NSManagedObjectModel`, compressed with raw DEFLATE. Read into ``ModelContents``, so a store
/// shows its model's names and types without the `.xcdatamodel` it was built from.
enum ModelCache {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ blob: [UInt8]) throws(Failure) -> ModelContents {
        let archive: PropertyListValue
        do {
            archive = try PropertyListValue.parse(try Inflate.decompress(blob))
        } catch let error as Inflate.Failure {
            throw Failure(description: "Z_MODELCACHE does not decompress: \(error)")
        } catch {
            throw Failure(description: "Z_MODELCACHE is not a property list: \(error)")
        }
        guard let objects = archive["$objects"]?.array else { throw Failure(description: "Z_MODELCACHE is not a keyed archive") }
        return try ModelCache(objects: objects).contents()
    }

    private struct ModelCache {
        let objects: [PropertyListValue]

        func object(_ reference: PropertyListValue?) -> PropertyListValue? {
            guard let index = reference?.uid, index > 0, index < objects.count else { return nil }
            return objects[index]
        }

        func className(_ value: PropertyListValue) -> String? { object(value["$class"])?["$classname"]?.string }

        /// A string, archived plainly or as an `NSMutableString` (`NS.string`).
        func string(_ reference: PropertyListValue?) -> String? {
            guard let value = object(reference) else { return nil }
            return value.string ?? value["NS.string"]?.string
        }

        /// The values of an archived `NSDictionary`/`NSArray`/`NSSet` (`NS.objects`).
        func members(_ reference: PropertyListValue?) -> [PropertyListValue] {
            (object(reference)?["NS.objects"]?.array ?? []).compactMap { object($0) }
        }

        func contents() throws(Failure) -> ModelContents {
            var entities: [ModelContents.Entity] = []
            var inherited: [String: Set<String>] = [:]
            for value in objects where className(value) == "NSEntityDescription" {
                guard let name = string(value["NSEntityName"]) else { continue }
                let parent = object(value["NSSuperentity"]).flatMap { string($0["NSEntityName"]) }
                var entity = ModelContents.Entity(name: name, parent: parent)
                for property in members(value["NSProperties"]) {
                    guard let propertyName = string(property["NSPropertyName"]), property["NSIsTransient"]?.bool != true else { continue }
                    switch className(property) {
                    case "NSAttributeDescription", "NSDerivedAttributeDescription":
                        entity.attributes.append((propertyName, Self.valueType(property["NSAttributeType"]?.integer ?? 0)))
                    case "NSRelationshipDescription":
                        let destination = object(property["NSDestinationEntity"]).flatMap { string($0["NSEntityName"]) }
                            ?? string(property["_NSDestinationEntityName"])
                        guard let destination else { continue }
                        entity.relationships.append(ModelContents.Relationship(
                            name: propertyName, destination: destination, isToMany: property["NSMaxCount"]?.integer != 1,
                            inverse: string(property["_NSInverseRelationshipName"])))
                    default:
                        continue
                    }
                }
                // Xcode's model files list properties by name; the archive keeps them hashed.
                entity.attributes.sort { $0.name < $1.name }
                entity.relationships.sort { $0.name < $1.name }
                inherited[name] = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
                entities.append(entity)
            }
            guard !entities.isEmpty else { throw Failure(description: "Z_MODELCACHE holds no entity description") }
            // An archived sub-entity repeats what it inherits; keep each property where it is
            // declared, as the model file does.
            for index in entities.indices {
                guard let parent = entities[index].parent, let parentKeys = inherited[parent] else { continue }
                entities[index].attributes.removeAll { parentKeys.contains($0.name) }
                entities[index].relationships.removeAll { parentKeys.contains($0.name) }
            }
            return ModelContents(entities: entities)
        }

        /// `NSAttributeType`'s raw values.
        static func valueType(_ code: Int64) -> ValueType {
            switch code {
            case 100, 200, 300: .integer
            case 400: .decimal
            case 500, 600: .double
            case 700: .string
            case 800: .bool
            case 900: .date
            case 1000: .binary
            case 1100: .uuid
            case 1200: .uri
            case 1800: .transformable
            default: .unknown
            }
        }
    }
}
