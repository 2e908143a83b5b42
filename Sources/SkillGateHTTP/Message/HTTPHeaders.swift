/// HTTP header fields in order, with case-insensitive lookup.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    public private(set) var fields: [Field]

    public init() { fields = [] }
    public init(_ pairs: [(String, String)]) { fields = pairs.map { Field(name: $0.0, value: $0.1) } }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value of the field `name` (case-insensitive).
    public subscript(name: String) -> String? {
        for f in fields where f.name.utf8.count == name.utf8.count && f.name.lowercased() == name.lowercased() { return f.value }
        return nil
    }

    /// All values of the field `name` (case-insensitive).
    public func values(_ name: String) -> [String] {
        let lower = name.lowercased()
        return fields.filter { $0.name.lowercased() == lower }.map(\.value)
    }

    /// Appends a field (keeps existing fields of the same name).
    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    /// Replaces all fields named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(Field(name: name, value: value))
    }

    /// Removes all fields named `name`.
    public mutating func remove(_ name: String) {
        let lower = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lower }
    }

    public var count: Int { fields.count }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
