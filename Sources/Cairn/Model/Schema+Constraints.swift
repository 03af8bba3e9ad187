extension Schema {
    /// An index declared with `#Index<T>(…)`.
    ///
    /// ```swift
    /// #Index<Workout>([\.startedAt], [\.title, \.minutes])
    /// // CREATE INDEX "Workout_startedAt" ON "Workout"("startedAt")
    /// // CREATE INDEX "Workout_title_minutes" ON "Workout"("title", "minutes")
    /// ```
    public struct Index<T: PersistentModel> {
        /// The kinds of index.
        public enum Types<U: PersistentModel> {
            /// An ordinary B-tree index over the key paths, in order.
            case binary([PartialKeyPath<U>])
            /// A spatial index. SQLite's R*Tree is a separate virtual table; Cairn creates an
            /// ordinary index over the same columns instead.
            case rtree([PartialKeyPath<U>])

            /// The indexed key paths.
            public var keyPaths: [AnyKeyPath] {
                switch self {
                case .binary(let paths), .rtree(let paths): paths
                }
            }
        }

        /// The index's kinds and key paths.
        public let indices: [Types<T>]

        /// Binary indexes over each key-path list: `Schema.Index<Workout>([\.title], [\.a, \.b])`.
        public init(_ indices: [PartialKeyPath<T>]...) { self.indices = indices.map { .binary($0) } }

        /// Indexes of the given kinds: `Schema.Index<Workout>(.binary([\.title]))`.
        public init(_ indices: Types<T>...) { self.indices = indices }

        /// The key-path lists, as `#Index` hands them to the entity.
        public var keyPaths: [[AnyKeyPath]] { indices.map(\.keyPaths) }
    }

    /// A uniqueness constraint declared with `#Unique<T>(…)`: each key-path list is unique
    /// together among the entity's rows.
    public struct Unique<T: PersistentModel> {
        /// The key-path lists.
        public let constraints: [[PartialKeyPath<T>]]

        /// `Schema.Unique<Person>([\.email], [\.givenName, \.familyName])`.
        public init(_ constraints: [PartialKeyPath<T>]...) { self.constraints = constraints }

        /// The key-path lists, as `#Unique` hands them to the entity.
        public var keyPaths: [[AnyKeyPath]] { constraints.map { $0.map { $0 as AnyKeyPath } } }
    }
}
