import SkillGateCore

/// An object key as bytes, compared with literals without allocating a String.
struct JSONKey {
    let bytes: UnsafeBufferPointer<UInt8>

    static func == (key: JSONKey, literal: StaticString) -> Bool {
        guard key.bytes.count == literal.utf8CodeUnitCount else { return false }
        let p = literal.utf8Start
        for i in 0..<key.bytes.count where key.bytes[i] != p[i] { return false }
        return true
    }

    static func ~= (literal: StaticString, key: JSONKey) -> Bool { key == literal }
}

/// A syntax error found by the scanner, with the byte offset where it was found.
struct ChunkSyntaxError: Error, CustomStringConvertible {
    var reason: String
    var offset: Int
    var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// Syntax primitives of `OpenAIChatJSONScanner`: walk, skip (checking syntax) and read values.
extension OpenAIChatJSONScanner {
    static let maxDepth = 128

    func fail(_ reason: String) -> ChunkSyntaxError { ChunkSyntaxError(reason: reason, offset: i) }

    mutating func ws() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    /// Whether the next value starts with `byte` (after whitespace).
    mutating func peekIs(_ byte: UInt8) -> Bool {
        ws()
        return i < b.count && b[i] == byte
    }

    /// Calls `member` for each key of the object at the cursor, positioned at the key's value;
    /// the call must consume the value.
    mutating func object(_ member: (inout OpenAIChatJSONScanner, JSONKey) throws -> Void) throws {
        ws()
        guard i < b.count, b[i] == UInt8(ascii: "{") else { throw fail("expected an object") }
        try nested { s in
            s.i += 1
            s.ws()
            if s.i < s.b.count, s.b[s.i] == UInt8(ascii: "}") { s.i += 1; return }
            while true {
                s.ws()
                let key = try s.keyBytes()
                s.ws()
                guard s.i < s.b.count, s.b[s.i] == UInt8(ascii: ":") else { throw s.fail("expected ':' after an object key") }
                s.i += 1
                s.ws()
                try member(&s, key)
                s.ws()
                guard s.i < s.b.count else { throw s.fail("unexpected end of input inside an object") }
                if s.b[s.i] == UInt8(ascii: ",") { s.i += 1; continue }
                if s.b[s.i] == UInt8(ascii: "}") { s.i += 1; return }
                throw s.fail("expected ',' or '}' in an object")
            }
        }
    }

    /// Like `object`, but `null` is accepted (and calls nothing).
    mutating func objectOrNull(_ member: (inout OpenAIChatJSONScanner, JSONKey) throws -> Void) throws {
        if peekIs(UInt8(ascii: "n")) { try skipValue() } else { try object(member) }
    }

    /// Calls `element` for each element of the array at the cursor; the call must consume it.
    mutating func array(_ element: (inout OpenAIChatJSONScanner) throws -> Void) throws {
        ws()
        guard i < b.count, b[i] == UInt8(ascii: "[") else { throw fail("expected an array") }
        try nested { s in
            s.i += 1
            s.ws()
            if s.i < s.b.count, s.b[s.i] == UInt8(ascii: "]") { s.i += 1; return }
            while true {
                s.ws()
                try element(&s)
                s.ws()
                guard s.i < s.b.count else { throw s.fail("unexpected end of input inside an array") }
                if s.b[s.i] == UInt8(ascii: ",") { s.i += 1; continue }
                if s.b[s.i] == UInt8(ascii: "]") { s.i += 1; return }
                throw s.fail("expected ',' or ']' in an array")
            }
        }
    }

    /// Like `array`, but `null` is accepted.
    mutating func arrayOrNull(_ element: (inout OpenAIChatJSONScanner) throws -> Void) throws {
        if peekIs(UInt8(ascii: "n")) { try skipValue() } else { try array(element) }
    }

    private mutating func nested(_ body: (inout OpenAIChatJSONScanner) throws -> Void) throws {
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        try body(&self)
        depth -= 1
    }

    /// A string value, or `nil` (skipping the value) when it is anything else.
    mutating func stringOrSkip() throws -> String? {
        if peekIs(UInt8(ascii: "\"")) { return try string() }
        try skipValue()
        return nil
    }

    /// An integer value, or `nil` (skipping the value) when it is anything else.
    mutating func int() throws -> Int? {
        ws()
        guard i < b.count, b[i] == UInt8(ascii: "-") || (b[i] >= 0x30 && b[i] <= 0x39) else { try skipValue(); return nil }
        let start = i
        try skipNumber()
        return JSONValue.number(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)).intValue
    }

    /// Whether the value is `null`; consumes it either way.
    mutating func isNullThenSkip() throws -> Bool {
        let isNull = peekIs(UInt8(ascii: "n"))
        try skipValue()
        return isNull
    }

    /// The value at the cursor as a full `JSONValue` (for the rare shapes the fast path does not read).
    mutating func rawValue() throws -> JSONValue {
        ws()
        let start = i
        try skipValue()
        return try JSONValue.parse(UnsafeBufferPointer(rebasing: b[start..<i]))
    }

    /// Skips one value, checking its syntax.
    mutating func skipValue() throws {
        ws()
        guard i < b.count else { throw fail("unexpected end of input") }
        switch b[i] {
        case UInt8(ascii: "{"): try object { s, _ in try s.skipValue() }
        case UInt8(ascii: "["): try array { s in try s.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), 0x30...0x39: try skipNumber()
        default: throw fail("unexpected character '\(Unicode.Scalar(b[i]))'")
        }
    }

    private mutating func literal(_ text: StaticString) throws {
        let n = text.utf8CodeUnitCount
        guard i + n <= b.count else { throw fail("unexpected end of input") }
        for k in 0..<n where b[i + k] != text.utf8Start[k] { throw fail("invalid literal") }
        i += n
    }

    private mutating func skipNumber() throws {
        let start = i
        if b[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < b.count, (b[i] >= 0x30 && b[i] <= 0x39) || b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: "e")
            || b[i] == UInt8(ascii: "E") || b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
        guard i > digitsStart else { i = start; throw fail("invalid number") }
    }

    private mutating func keyBytes() throws -> JSONKey {
        guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a string key in an object") }
        let start = i + 1
        try skipString()
        return JSONKey(bytes: UnsafeBufferPointer(rebasing: b[start..<(i - 1)]))
    }

    private mutating func skipString() throws {
        i += 1
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return }
            if c == UInt8(ascii: "\\") { i += 2; continue }
            if c < 0x20 { throw fail("unescaped control character in a string") }
            i += 1
        }
        throw fail("unterminated string")
    }
}
