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
        for f in fields where Self.sameName(f.name, name) { return f.value }
        return nil
    }

    /// The value of the field `name` (case-insensitive) when it is given at most once; `.failure` when it is given twice
    /// or more, where a reader taking the first and another taking the last would disagree.
    public func single(_ name: String) -> Result<String?, RepeatedField> {
        var found: String?
        for f in fields where Self.sameName(f.name, name) {
            if found != nil { return .failure(RepeatedField(name: name)) }
            found = f.value
        }
        return .success(found)
    }

    /// A field given twice where it must be given once (`single`).
    public struct RepeatedField: Error, Sendable, Hashable {
        public var name: String
    }

    /// All values of the field `name` (case-insensitive).
    public func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// ASCII case-insensitive comparison of field names without allocating (header lookups are on every request).
    @inline(__always)
    public static func sameName(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        // Native strings (all of ours) compare over their contiguous bytes; the iterator pair below is
        // several times slower and was a visible share of a request's instructions.
        if let same = x.withContiguousStorageIfAvailable({ p in
            y.withContiguousStorageIfAvailable { q in sameName(p, q) }
        }), let same { return same }
        for (p, q) in zip(x, y) where p != q {
            let lp = (p >= 0x41 && p <= 0x5A) ? p | 0x20 : p
            let lq = (q >= 0x41 && q <= 0x5A) ? q | 0x20 : q
            if lp != lq { return false }
        }
        return true
    }

    /// `sameName` over two byte buffers (a field name read off the wire, say).
    @inline(__always)
    static func sameName(_ p: UnsafeBufferPointer<UInt8>, _ q: UnsafeBufferPointer<UInt8>) -> Bool {
        guard p.count == q.count else { return false }
        for i in 0..<p.count where p[i] != q[i] {
            let lp = (p[i] >= 0x41 && p[i] <= 0x5A) ? p[i] | 0x20 : p[i]
            let lq = (q[i] >= 0x41 && q[i] <= 0x5A) ? q[i] | 0x20 : q[i]
            if lp != lq { return false }
        }
        return true
    }

    /// `sameName` of a name's bytes and a literal name.
    @inline(__always)
    static func sameName(_ p: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        sameName(p, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// Room for `count` fields without growing (a request's or response's headers are built one by one on every
    /// request; each growth is an allocation and a copy).
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Appends a field (keeps existing fields of the same name).
    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    /// Replaces all fields named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(Field(name: name, value: value))
    }

    /// Removes all fields named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    public var count: Int { fields.count }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
