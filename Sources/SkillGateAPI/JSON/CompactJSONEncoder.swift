/// Encodes `Encodable` values as compact JSON in a fixed, documented form — the bytes SkillGate
/// sends for the types of this module.
///
/// Unlike Foundation's `JSONEncoder`, members keep the order in which the value encodes them
/// (declaration order for synthesised `Codable`, so `{"call_id":…,"skill":…}` reads as the API
/// reference lists it), `/` is not escaped, and integral doubles below 10^15 are written as
/// integers (`0`, not `0.0`). Strings escape `"`, `\`, and control characters (`\n`, `\r`, `\t`,
/// the rest as `\u00XX`); everything else, non-ASCII included, is written as UTF-8. Non-finite
/// numbers become `null`. `nil` optionals are left out, as synthesised `encodeIfPresent` does.
public struct CompactJSONEncoder: Sendable {
    public init() {}

    /// The compact JSON text of `value` as UTF-8 bytes.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var out: [UInt8] = []
        try EncodedNode.make(value, codingPath: []).write(to: &out)
        return out
    }
}

/// A value while it is being encoded: scalars are JSON text at once, containers fill in later.
enum EncodedNode {
    case text([UInt8])
    case object(ObjectBox)
    case array(ArrayBox)
    /// A `superEncoder()`: whatever was encoded into it by the time the tree is written.
    case deferred(NodeEncoder)

    /// Encodes `value` found at `codingPath` (made only for a value that is not a scalar: only an `Encoder` shows it).
    static func make<T: Encodable>(_ value: T, codingPath: @autoclosure () -> [any CodingKey]) throws -> EncodedNode {
        if let text = JSONText.scalar(value) { return .text(text) }
        let encoder = NodeEncoder(codingPath: codingPath())
        try value.encode(to: encoder)
        return encoder.node ?? .object(ObjectBox())  // a value that encoded nothing is `{}`, as with JSONEncoder
    }

    func write(to out: inout [UInt8]) {
        switch self {
        case .text(let text):
            out.append(contentsOf: text)
        case .object(let box):
            out.append(UInt8(ascii: "{"))
            for (i, key) in box.keys.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                box.values[i].write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let box):
            out.append(UInt8(ascii: "["))
            for (i, element) in box.elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .deferred(let encoder):
            (encoder.node ?? .object(ObjectBox())).write(to: &out)
        }
    }
}

/// The members of an object being encoded, in the order they were first set.
final class ObjectBox {
    private(set) var keys: [String] = []
    private(set) var values: [EncodedNode] = []

    /// Sets `key`; a key encoded twice keeps its first place and takes the last value.
    func set(_ key: String, _ value: EncodedNode) {
        if let i = keys.firstIndex(of: key) {
            values[i] = value
        } else {
            keys.append(key)
            values.append(value)
        }
    }
}

/// The elements of an array being encoded.
final class ArrayBox {
    var elements: [EncodedNode] = []
}

/// The `Encoder` handed to `encode(to:)`: records which container the value asked for.
final class NodeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What the value encoded; nil until it asks for a container.
    var node: EncodedNode?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: ObjectBox
        if case .object(let existing)? = node {
            box = existing
        } else {
            box = ObjectBox()
            node = .object(box)
        }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: ArrayBox
        if case .array(let existing)? = node {
            box = existing
        } else {
            box = ArrayBox()
            node = .array(box)
        }
        return UnkeyedNodeContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(encoder: self)
    }
}
