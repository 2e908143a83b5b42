/// Arbitrary JSON, as it appears in the API where the schema is open: a skill's `arguments` and
/// `payload`, a tool's `parameters` schema.
///
/// Numbers keep their literal text (`JSONNumber`), so the gateway passes them on digit for digit.
/// Objects are dictionaries: their members have no order, and SkillGate writes them sorted by key so
/// the bytes are the same every time.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The string, if this is a string.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The boolean, if this is a boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// The number, if this is a number.
    public var doubleValue: Double? { if case .number(let n) = self { return n.doubleValue } else { return nil } }
    /// The number as an integer, if this is a number written as an integer that `Int` holds.
    public var intValue: Int? { if case .number(let n) = self { return n.intValue } else { return nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The member `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }

    /// The element at `index`, if this is an array that long.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A later member with the same key replaces an earlier one.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
