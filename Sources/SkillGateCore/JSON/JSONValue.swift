/// A JSON document as a value.
///
/// Numbers keep their literal text, so a value read from one wire format and written to another
/// is not rounded (`12345678901234567890` and `1.10` survive a round trip). Objects keep their
/// members in document order, so serialised bodies are stable and diffable.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, stored as its JSON literal (`"42"`, `"-1.5e3"`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A number value from an integer.
    public static func int<I: BinaryInteger>(_ value: I) -> JSONValue { .number(String(value)) }

    /// A number value from a double; non-finite values become `null` (JSON has no NaN or infinity).
    public static func double(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number(String(value))
    }

    /// The string, if this is a string.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The boolean, if this is a boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// The object, if this is an object.
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The number as an integer, if it is a number with an integral value.
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let i = Int(text) { return i }
        if let d = Double(text), d == d.rounded(), abs(d) < 9e15 { return Int(d) }
        return nil
    }

    /// The number as a double, if this is a number.
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Self.exactDecimal(text) ?? Double(text)
    }

    /// Powers of ten that a `Double` holds exactly (10^0 through 10^22).
    private static let exactPowersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

    /// A plain decimal (`-12.5`, `0.2`: no exponent) of at most 15 significant digits and 22 after the point, read without `strtod`: its digits as an
    /// integer and a power of ten are both exact in a `Double`, so one division, correctly rounded by IEEE 754, gives
    /// exactly the double `strtod` would (Clinger's fast path). Nil for anything else, which `Double(_:)` then reads.
    static func exactDecimal(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { bytes -> Double? in
            var i = 0
            let negative = i < bytes.count && bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var mantissa: Int64 = 0
            var digits = 0
            var significant = 0
            var fractionDigits = 0
            var inFraction = false
            while i < bytes.count {
                let byte = bytes[i]
                if byte == UInt8(ascii: ".") {
                    guard !inFraction, digits > 0 else { return nil }
                    inFraction = true
                } else {
                    let digit = byte &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }  // an exponent, or not a number
                    if mantissa != 0 || digit != 0 { significant += 1 }  // leading zeros add nothing to the integer
                    mantissa = mantissa &* 10 &+ Int64(digit)
                    digits += 1
                    if inFraction { fractionDigits += 1 }
                }
                i += 1
            }
            guard digits > 0, significant <= 15, fractionDigits <= 22, !(inFraction && fractionDigits == 0) else { return nil }
            let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
            return negative ? -value : value
        }
    }

    /// The member `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }

    /// A short name of the value's JSON type, for error messages ("a string", "an object").
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object whose members keep their order.
///
/// Lookup is a linear scan, which is faster than hashing for the small objects of chat payloads.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) { self.key = key; self.value = value }
    }

    /// The members in document order.
    public private(set) var members: [Member]

    /// An empty object.
    public init() { members = [] }

    /// An object with the given members, in order.
    public init(_ members: [Member]) { self.members = members }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    /// The value of member `key`; setting `nil` removes it, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            // Keys of another length are passed over without a string comparison (most members of a lookup).
            let length = key.utf8.count
            for i in members.indices where members[i].key.utf8.count == length && members[i].key == key { return members[i].value }
            return nil
        }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let v = newValue { members[i].value = v } else { members.remove(at: i) }
            } else if let v = newValue {
                members.append(Member(key: key, value: v))
            }
        }
    }

    /// Appends a member without checking for an existing one (for building fresh objects).
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// Appends a member only when the value is present.
    public mutating func append(_ key: String, ifPresent value: JSONValue?) {
        if let value { members.append(Member(key: key, value: value)) }
    }

    /// The member names in order.
    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}
