import SkillGateAPI
import Testing

/// The containers' typed `encode` overloads (a `String`, a `Bool`, a number written at once) give the bytes the generic
/// path gives for the same value, in keyed, unkeyed and single-value containers.
@Suite("CompactJSONEncoder typed overloads")
struct CompactJSONEncoderTypedTests {
    /// A scalar encoded through the typed overload (static type known) or through the generic one.
    enum Path { case typed, generic }

    enum Key: String, CodingKey { case v }

    /// Encodes `value` in all three container kinds, with the overload `path` picks.
    struct Probe<T: Encodable>: Encodable {
        let value: T
        let path: Path
        let typed: (inout KeyedEncodingContainer<Key>) throws -> Void
        let typedUnkeyed: (inout any UnkeyedEncodingContainer) throws -> Void
        let typedSingle: (inout any SingleValueEncodingContainer) throws -> Void

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Key.self)
            var list = keyed.nestedUnkeyedContainer(forKey: .v)
            switch path {
            case .typed:
                try typed(&keyed)
                try typedUnkeyed(&list)
            case .generic:
                try Self.generic(value, &keyed)
                try list.encode(value)
            }
        }

        static func generic(_ value: some Encodable, _ keyed: inout KeyedEncodingContainer<Key>) throws { try keyed.encode(value, forKey: .v) }
    }

    /// One value through a single-value container.
    struct Single<T: Encodable>: Encodable {
        let value: T
        let typed: ((inout any SingleValueEncodingContainer) throws -> Void)?

        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            if let typed { try typed(&single) } else { try single.encode(value) }
        }
    }

    static func bytes(_ value: some Encodable) throws -> String { String(decoding: try CompactJSONEncoder().encode(value), as: UTF8.self) }

    static func expectSame<T: Encodable>(_ value: T, keyed: @escaping (inout KeyedEncodingContainer<Key>) throws -> Void,
                                         unkeyed: @escaping (inout any UnkeyedEncodingContainer) throws -> Void,
                                         single: @escaping (inout any SingleValueEncodingContainer) throws -> Void) throws {
        let typed = try bytes(Probe(value: value, path: .typed, typed: keyed, typedUnkeyed: unkeyed, typedSingle: single))
        let generic = try bytes(Probe(value: value, path: .generic, typed: keyed, typedUnkeyed: unkeyed, typedSingle: single))
        #expect(typed == generic, "\(value)")
        #expect(try bytes(Single(value: value, typed: single)) == (try bytes(Single(value: value, typed: nil))), "\(value)")
    }

    static let strings = ["", "plain", "quote \" and \\ backslash", "lines\n\r\ttab", "\u{01}\u{1F}\u{7F}", "a/b ünï 日本 😀",
                          "\"", "\\", "\n", "end\u{0}", String(repeating: "long run ", count: 40) + "\"tail\"\n"]
    static let doubles: [Double] = [0, -0.0, 3, -7, 0.1, 0.00001234, 1e15, 1e16, 123456.789, .nan, .infinity, -.infinity,
                                    .greatestFiniteMagnitude, .leastNonzeroMagnitude, 999_999_999_999_999]

    @Test func stringsMatch() throws {
        for s in Self.strings {
            try Self.expectSame(s, keyed: { try $0.encode(s, forKey: .v) }, unkeyed: { try $0.encode(s) }, single: { try $0.encode(s) })
        }
    }

    @Test func boolsAndDoublesAndFloatsMatch() throws {
        for b in [true, false] {
            try Self.expectSame(b, keyed: { try $0.encode(b, forKey: .v) }, unkeyed: { try $0.encode(b) }, single: { try $0.encode(b) })
        }
        for d in Self.doubles {
            try Self.expectSame(d, keyed: { try $0.encode(d, forKey: .v) }, unkeyed: { try $0.encode(d) }, single: { try $0.encode(d) })
            let f = Float(d)
            try Self.expectSame(f, keyed: { try $0.encode(f, forKey: .v) }, unkeyed: { try $0.encode(f) }, single: { try $0.encode(f) })
        }
    }

    @Test func integersOfEveryWidthMatch() throws {
        func check<I: FixedWidthInteger & Encodable>(_ type: I.Type) throws {
            for i in [I.min, I.max, 0, 1, I.max / 3] {
                try Self.expectSame(i, keyed: { try $0.encode(i, forKey: .v) }, unkeyed: { try $0.encode(i) }, single: { try $0.encode(i) })
            }
        }
        try check(Int.self); try check(Int8.self); try check(Int16.self); try check(Int32.self); try check(Int64.self)
        try check(UInt.self); try check(UInt8.self); try check(UInt16.self); try check(UInt32.self); try check(UInt64.self)
    }

    /// A string's escapes, against the byte-at-a-time writer the run-copying one replaced.
    @Test func stringEscapesMatchTheByteAtATimeWriter() throws {
        var all = Self.strings
        for b in 0..<0x80 { all.append("a" + String(UnicodeScalar(UInt8(b))) + "b"); all.append(String(UnicodeScalar(UInt8(b)))) }
        for s in all { #expect(try Self.bytes(s) == Self.byteAtATime(s), "\(Array(s.utf8))") }
    }

    static func byteAtATime(_ string: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [0x22]
        for byte in string.utf8 {
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x09: out += [0x5C, 0x74]
            case ..<0x20: out += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }
}
