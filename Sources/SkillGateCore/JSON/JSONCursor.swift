/// A pull reader over the bytes of one JSON document: a caller walks the objects and arrays it
/// cares about, reads the values it needs and skips the rest, without building a `JSONValue` tree.
///
/// Skipped values are still checked in full, so a document is accepted or rejected exactly as
/// `JSONValue.parse` would, with the same `JSONSyntaxError` (reason and byte offset) — as long as
/// the reader consumes the document in order, which `JSONCursor.read` ensures. Each method reads
/// the value at the cursor; whitespace around values is skipped by the cursor itself.
///
/// The cursor points into a buffer it does not own: use it only inside `read`.
public struct JSONCursor {
    private var parser: JSONParser

    private init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        parser = JSONParser(buffer: buffer, maxDepth: maxDepth)
    }

    /// Reads one complete document: `body` reads its top-level value, then only whitespace may
    /// follow ("unexpected content after the JSON value" otherwise). A value `body` leaves unread
    /// is skipped (and checked).
    public static func read<R>(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = 256,
                               _ body: (inout JSONCursor) throws(JSONSyntaxError) -> R) throws(JSONSyntaxError) -> R {
        var cursor = JSONCursor(buffer: buffer, maxDepth: maxDepth)
        cursor.parser.skipWhitespace()
        let start = cursor.parser.index
        let result = try body(&cursor)
        if cursor.parser.index == start { try cursor.parser.skipValue() }
        cursor.parser.skipWhitespace()
        if cursor.parser.index != buffer.count { throw cursor.parser.fail("unexpected content after the JSON value") }
        return result
    }

    /// An object key, compared with literals without making a `String` (escaped or non-ASCII keys
    /// are decoded first, so `"na\u006De"` equals `"name"`).
    public struct Key {
        /// The raw bytes of a plain (unescaped ASCII) key; `nil` when the key needed decoding.
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>?
        @usableFromInline let decoded: String?

        init(bytes: UnsafeBufferPointer<UInt8>?, decoded: String?) {
            self.bytes = bytes
            self.decoded = decoded
        }

        /// The key as a string.
        public var string: String { decoded ?? String(decoding: bytes!, as: UTF8.self) }

        @inlinable @inline(__always)
        public static func == (key: Key, literal: StaticString) -> Bool {
            guard let bytes = key.bytes else { return key.decoded! == literal.description }
            let count = literal.utf8CodeUnitCount
            guard bytes.count == count else { return false }
            // Compared inline: the literal's length and bytes are constants once this is inlined.
            let a = bytes.baseAddress!, b = literal.utf8Start
            for i in 0..<count where a[i] != b[i] { return false }
            return true
        }

        /// Lets a `switch` over a key use string literals as patterns.
        @inlinable @inline(__always)
        public static func ~= (literal: StaticString, key: Key) -> Bool { key == literal }
    }

    /// If the value at the cursor is an object, calls `member` for each member in order, with the
    /// cursor at the member's value, and returns `true`; `member` reads the value or leaves it to
    /// be skipped. Returns `false`, consuming nothing, when the value is not an object.
    public mutating func readObject(_ member: (inout JSONCursor, Key) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) -> Bool {
        guard parser.index < parser.buffer.count, parser.buffer[parser.index] == UInt8(ascii: "{") else { return false }
        try parser.enter()
        parser.index += 1
        parser.skipWhitespace()
        if parser.index < parser.buffer.count, parser.buffer[parser.index] == UInt8(ascii: "}") {
            parser.index += 1; parser.depth -= 1
            return true
        }
        while true {
            parser.skipWhitespace()
            guard parser.index < parser.buffer.count, parser.buffer[parser.index] == UInt8(ascii: "\"") else {
                throw parser.fail("expected a string key in an object")
            }
            let key = try readKey()
            parser.skipWhitespace()
            guard parser.index < parser.buffer.count, parser.buffer[parser.index] == UInt8(ascii: ":") else {
                throw parser.fail("expected ':' after an object key")
            }
            parser.index += 1
            parser.skipWhitespace()
            let valueStart = parser.index
            try member(&self, key)
            if parser.index == valueStart { try parser.skipValue() }
            parser.skipWhitespace()
            guard parser.index < parser.buffer.count else { throw parser.fail("unexpected end of input inside an object") }
            if parser.buffer[parser.index] == UInt8(ascii: ",") { parser.index += 1; continue }
            if parser.buffer[parser.index] == UInt8(ascii: "}") { parser.index += 1; break }
            throw parser.fail("expected ',' or '}' in an object")
        }
        parser.depth -= 1
        return true
    }

    /// If the value at the cursor is an array, calls `element` for each element in order, with the
    /// cursor at the element, and returns `true`; `element` reads the value or leaves it to be
    /// skipped. Returns `false`, consuming nothing, when the value is not an array.
    public mutating func readArray(_ element: (inout JSONCursor) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) -> Bool {
        guard parser.index < parser.buffer.count, parser.buffer[parser.index] == UInt8(ascii: "[") else { return false }
        try parser.enter()
        parser.index += 1
        parser.skipWhitespace()
        if parser.index < parser.buffer.count, parser.buffer[parser.index] == UInt8(ascii: "]") {
            parser.index += 1; parser.depth -= 1
            return true
        }
        while true {
            parser.skipWhitespace()
            let valueStart = parser.index
            try element(&self)
            if parser.index == valueStart { try parser.skipValue() }
            parser.skipWhitespace()
            guard parser.index < parser.buffer.count else { throw parser.fail("unexpected end of input inside an array") }
            if parser.buffer[parser.index] == UInt8(ascii: ",") { parser.index += 1; continue }
            if parser.buffer[parser.index] == UInt8(ascii: "]") { parser.index += 1; break }
            throw parser.fail("expected ',' or ']' in an array")
        }
        parser.depth -= 1
        return true
    }

    /// The value at the cursor, built in full.
    public mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
        try parser.parseValue()
    }

    /// The value at the cursor if it is a string; any other value is skipped and gives `nil`.
    public mutating func readString() throws(JSONSyntaxError) -> String? {
        guard next == UInt8(ascii: "\"") else { try parser.skipValue(); return nil }
        return try parser.parseString()
    }

    /// The value at the cursor if it is `true` or `false`; any other value is skipped and gives `nil`.
    public mutating func readBool() throws(JSONSyntaxError) -> Bool? {
        guard next == UInt8(ascii: "t") || next == UInt8(ascii: "f") else { try parser.skipValue(); return nil }
        return try parser.parseValue().boolValue
    }

    /// The value at the cursor as `JSONValue.intValue` reads it (an integral number); any other
    /// value is skipped and gives `nil`.
    public mutating func readInt() throws(JSONSyntaxError) -> Int? {
        guard let b = next, b == UInt8(ascii: "-") || parser.isDigit(b) else { try parser.skipValue(); return nil }
        let start = parser.index
        try parser.scanNumber()
        let literal = UnsafeBufferPointer(rebasing: parser.buffer[start..<parser.index])
        return Self.smallInt(literal) ?? JSONValue.number(String(decoding: literal, as: UTF8.self)).intValue
    }

    /// The value of a number literal made of at most 18 digits (and an optional minus sign), read
    /// without making a string; `nil` for any other literal.
    private static func smallInt(_ literal: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let negative = literal.first == UInt8(ascii: "-")
        if negative { i = 1 }
        guard literal.count - i <= 18 else { return nil }
        var value = 0
        while i < literal.count {
            let digit = literal[i] &- 0x30
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
            i += 1
        }
        return negative ? -value : value
    }

    /// Moves past the value at the cursor, checking its syntax.
    public mutating func skipValue() throws(JSONSyntaxError) {
        try parser.skipValue()
    }

    /// The first byte of the value at the cursor, or `nil` at the end of the input.
    private var next: UInt8? { parser.index < parser.buffer.count ? parser.buffer[parser.index] : nil }

    private mutating func readKey() throws(JSONSyntaxError) -> Key {
        let start = parser.index
        if let plain = try parser.scanPlainString() { return Key(bytes: plain, decoded: nil) }
        parser.index = start
        return Key(bytes: nil, decoded: try parser.parseString())
    }
}
