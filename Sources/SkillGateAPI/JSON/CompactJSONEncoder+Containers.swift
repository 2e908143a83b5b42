// The three container kinds of `NodeEncoder`. The typed `encode` overloads the protocols require write their scalar's
// JSON text at once (`JSONText`), the same text the generic path (`EncodedNode.make`) writes for it after its dynamic
// casts; other values go through the generic path.

struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.null)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, key) }

    private func put<T: Encodable>(_ value: T, _ key: Key) throws {
        box.set(key.stringValue, try EncodedNode.make(value, codingPath: codingPath + [key]))
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.bool(value))) }
    mutating func encode(_ value: String, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.string(value))) }
    mutating func encode(_ value: Double, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.number(value))) }
    mutating func encode(_ value: Float, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.number(Double(value)))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { box.set(key.stringValue, .text(JSONText.integer(value))) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBox()
        box.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        box.set(key.stringValue, .array(nested))
        return UnkeyedNodeContainer(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let encoder = NodeEncoder(codingPath: codingPath)
        box.set(name, .deferred(encoder))
        return encoder
    }
}

struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.elements.count }

    mutating func encodeNil() throws { box.elements.append(.text(JSONText.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws { try put(value) }

    private func put<T: Encodable>(_ value: T) throws {
        box.elements.append(try EncodedNode.make(value, codingPath: codingPath + [IndexKey(count)]))
    }

    private func append(_ node: EncodedNode) { box.elements.append(node) }

    mutating func encode(_ value: Bool) throws { append(.text(JSONText.bool(value))) }
    mutating func encode(_ value: String) throws { append(.text(JSONText.string(value))) }
    mutating func encode(_ value: Double) throws { append(.text(JSONText.number(value))) }
    mutating func encode(_ value: Float) throws { append(.text(JSONText.number(Double(value)))) }
    mutating func encode(_ value: Int) throws { append(.text(JSONText.integer(value))) }
    mutating func encode(_ value: Int8) throws { append(.text(JSONText.integer(value))) }
    mutating func encode(_ value: Int16) throws { append(.text(JSONText.integer(value))) }
    mutating func encode(_ value: Int32) throws { append(.text(JSONText.integer(value))) }
    mutating func encode(_ value: Int64) throws { append(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt) throws { append(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt8) throws { append(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt16) throws { append(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt32) throws { append(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt64) throws { append(.text(JSONText.integer(value))) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBox()
        let path = codingPath + [IndexKey(count)]
        box.elements.append(.object(nested))
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        let path = codingPath + [IndexKey(count)]
        box.elements.append(.array(nested))
        return UnkeyedNodeContainer(box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = NodeEncoder(codingPath: codingPath + [IndexKey(count)])
        box.elements.append(.deferred(encoder))
        return encoder
    }
}

struct SingleNodeContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node = .text(JSONText.null) }

    mutating func encode<T: Encodable>(_ value: T) throws { try put(value) }

    private func put<T: Encodable>(_ value: T) throws {
        encoder.node = try EncodedNode.make(value, codingPath: codingPath)
    }

    private func set(_ node: EncodedNode) { encoder.node = node }

    mutating func encode(_ value: Bool) throws { set(.text(JSONText.bool(value))) }
    mutating func encode(_ value: String) throws { set(.text(JSONText.string(value))) }
    mutating func encode(_ value: Double) throws { set(.text(JSONText.number(value))) }
    mutating func encode(_ value: Float) throws { set(.text(JSONText.number(Double(value)))) }
    mutating func encode(_ value: Int) throws { set(.text(JSONText.integer(value))) }
    mutating func encode(_ value: Int8) throws { set(.text(JSONText.integer(value))) }
    mutating func encode(_ value: Int16) throws { set(.text(JSONText.integer(value))) }
    mutating func encode(_ value: Int32) throws { set(.text(JSONText.integer(value))) }
    mutating func encode(_ value: Int64) throws { set(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt) throws { set(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt8) throws { set(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt16) throws { set(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt32) throws { set(.text(JSONText.integer(value))) }
    mutating func encode(_ value: UInt64) throws { set(.text(JSONText.integer(value))) }
}

/// The coding-path entry of an array element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
