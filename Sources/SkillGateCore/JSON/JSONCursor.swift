/// A pull reader over the bytes of one JSON document: a caller walks the objects and arrays it
/// cares about, reads the values it needs and skips the rest, without building a `JSONValue` tree.
///
/// The cursor is SkillGate's one JSON grammar (inside Core it goes by `JSONParser`, the name of
/// its tree-building side): `JSONValue.parse` runs the same code, so skipped values are checked in
/// full and a document is accepted or rejected exactly as `JSONValue.parse` would, with the same
/// `JSONSyntaxError` (reason and byte offset) — as long as the reader consumes the document in
/// order, which `JSONCursor.read` ensures. Each method reads the value at the cursor; whitespace
/// around values is skipped by the cursor itself. Read with `JSONDuplicateKeys.refused` (a body a
/// client sent), an object that names a key twice is an error wherever it is, in a value the reader
/// reads, skips or keeps as bytes alike (decision 0093).
///
/// The cursor points into a buffer it does not own: use it only inside `read`.
public struct JSONCursor {
    /// The document's bytes.
    let buffer: UnsafeBufferPointer<UInt8>
    /// The nesting limit (`JSONValue.defaultMaxDepth` unless a caller chose another).
    let maxDepth: Int
    /// Where the cursor is.
    var index = 0
    /// How many objects and arrays enclose the cursor.
    var depth = 0
    /// Whether an object that names a key twice is an error (`JSONDuplicateKeys.refused`).
    let refusesDuplicateKeys: Bool
    /// With `refusesDuplicateKeys`, the keys of the objects enclosing the cursor (empty, and never allocated, without).
    var keys = JSONKeyRegister()
    /// Set when a string with an escape is read or skipped; `walkObject` clears it before a key, so it then tells
    /// whether the key's bytes are its value (no need to look for a backslash in every key).
    var sawEscape = false

    init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int, duplicateKeys: JSONDuplicateKeys) {
        self.buffer = buffer
        self.maxDepth = maxDepth
        refusesDuplicateKeys = duplicateKeys == .refused
        if refusesDuplicateKeys { keys.spans.reserveCapacity(32) }   // the document's one allocation for the check
    }

    /// Reads one complete document: `body` reads its top-level value, then only whitespace may
    /// follow ("unexpected content after the JSON value" otherwise). A value `body` leaves unread
    /// is skipped (and checked). `maxDepth` is the nesting limit, `JSONValue.defaultMaxDepth`
    /// unless told otherwise, as for `JSONValue.parse`; `duplicateKeys` says whether an object may
    /// name a key twice (`.refused` for a body a client sent).
    public static func read<R>(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONValue.defaultMaxDepth,
                               duplicateKeys: JSONDuplicateKeys = .allowed,
                               _ body: (inout JSONCursor) throws(JSONSyntaxError) -> R) throws(JSONSyntaxError) -> R {
        var cursor = JSONCursor(buffer: buffer, maxDepth: maxDepth, duplicateKeys: duplicateKeys)
        cursor.skipWhitespace()
        let start = cursor.index
        let result = try body(&cursor)
        if cursor.index == start { try cursor.skipValue() }
        try cursor.expectEndOfDocument()
        return result
    }

    /// Calls `body` with the cursor at a value, then skips the value if `body` left it unread.
    @inline(__always)
    private mutating func visit(_ body: (inout JSONCursor) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        let start = index
        try body(&self)
        if index == start { try skipValue() }
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

    /// What this cursor does with an object that names a key twice (a reader that reads part of the document with a
    /// cursor of its own passes it on).
    public var duplicateKeys: JSONDuplicateKeys { refusesDuplicateKeys ? .refused : .allowed }

    /// A place in the document, for a reader that tries one way of reading a value and, when it does not suit, goes
    /// back (`restore`) and reads the value another way. Cheaper than keeping a copy of the cursor, which shares the
    /// keys checked so far and would make the next key copy them.
    public struct Mark {
        let index: Int
        let depth: Int
        let keys: Int
    }

    /// Where the cursor is; take it at a value and `restore` it before reading past that value.
    public var mark: Mark { Mark(index: index, depth: depth, keys: keys.spans.count) }

    /// Puts the cursor back at `mark`, with the keys it had checked there, whatever was read since (or failed).
    public mutating func restore(_ mark: Mark) {
        index = mark.index
        depth = mark.depth
        keys.close(from: mark.keys)
    }

    /// The byte offset of the cursor in the document: before a value is read, where it starts; after, just past it
    /// (a caller can keep the raw bytes of a member this way).
    public var offset: Int { index }

    /// The kinds of JSON value, as `kind` tells them.
    public enum Kind: Sendable, Hashable {
        case object, array, string, number, bool, null
    }

    /// The kind of the value at the cursor, told from its first byte without reading it; `nil` at
    /// the end of the input or at a byte no value starts with (reading the value then fails).
    public var kind: Kind? {
        guard let byte = next else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: return nil
        }
    }

    /// If the value at the cursor is an object, calls `member` for each member in order, with the
    /// cursor at the member's value, and returns `true`; `member` reads the value or leaves it to
    /// be skipped. Returns `false`, consuming nothing, when the value is not an object.
    public mutating func readObject(_ member: (inout JSONCursor, Key) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) -> Bool {
        guard next == UInt8(ascii: "{") else { return false }
        try walkObject(key: Self.readKey) { (c, key) throws(JSONSyntaxError) in
            try c.visit { (c) throws(JSONSyntaxError) in try member(&c, key) }
        }
        return true
    }

    /// If the value at the cursor is an array, calls `element` for each element in order, with the
    /// cursor at the element, and returns `true`; `element` reads the value or leaves it to be
    /// skipped. Returns `false`, consuming nothing, when the value is not an array.
    public mutating func readArray(_ element: (inout JSONCursor) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) -> Bool {
        guard next == UInt8(ascii: "[") else { return false }
        try walkArray { (c) throws(JSONSyntaxError) in try c.visit(element) }
        return true
    }

    /// The value at the cursor, built in full.
    public mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
        try parseValue()
    }

    /// If the value at the cursor is an object, moves past it (checking it in full, as `readValue` would)
    /// and returns its source bytes, whitespace and escapes as they are; returns `nil`, consuming nothing,
    /// for any other value. The bytes point into the document: copy them before `read` returns.
    public mutating func readObjectBytes() throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8>? {
        guard next == UInt8(ascii: "{") else { return nil }
        let start = index
        try skipValue()
        return UnsafeBufferPointer(rebasing: buffer[start..<index])
    }

    /// The document's bytes from the cursor on (the cursor is at a value, whitespace before it skipped): for a caller
    /// that recognises a value it checked in an earlier document by its exact bytes (`skipRecognisedValue`).
    public var bytesAhead: UnsafeBufferPointer<UInt8> {
        mutating get {
            skipWhitespace()
            return UnsafeBufferPointer(rebasing: buffer[index...])
        }
    }

    /// Moves past the first `length` bytes of `bytesAhead`, which the caller recognised as exactly the bytes of a
    /// complete value it checked before (an array `readArrayBytes` returned for an earlier document). The bytes of a
    /// valid value decide where it ends, so the document then reads on exactly as if the value had been checked again.
    public mutating func skipRecognisedValue(length: Int) {
        precondition(length > 0 && index + length <= buffer.count, "a recognised value must lie within the document")
        index += length
    }

    /// If the value at the cursor is an array, moves past it (checking it in full, as `readValue` would)
    /// and returns its source bytes as they are; returns `nil`, consuming nothing, for any other value.
    /// The bytes point into the document: copy them before `read` returns.
    public mutating func readArrayBytes() throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8>? {
        guard next == UInt8(ascii: "[") else { return nil }
        let start = index
        try skipValue()
        return UnsafeBufferPointer(rebasing: buffer[start..<index])
    }

    /// The value at the cursor if it is a string; any other value is skipped and gives `nil`.
    public mutating func readString() throws(JSONSyntaxError) -> String? {
        guard next == UInt8(ascii: "\"") else { try skipValue(); return nil }
        return try parseString()
    }

    /// The value at the cursor if it is `true` or `false`; any other value is skipped and gives `nil`.
    public mutating func readBool() throws(JSONSyntaxError) -> Bool? {
        guard next == UInt8(ascii: "t") || next == UInt8(ascii: "f") else { try skipValue(); return nil }
        return try parseValue().boolValue
    }

    /// The value at the cursor as `JSONValue.intValue` reads it (an integral number); any other
    /// value is skipped and gives `nil`.
    public mutating func readInt() throws(JSONSyntaxError) -> Int? {
        guard let b = next, b == UInt8(ascii: "-") || isDigit(b) else { try skipValue(); return nil }
        let start = index
        try scanNumber()
        let literal = UnsafeBufferPointer(rebasing: buffer[start..<index])
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

    /// The key at the cursor (its opening quote), as bytes when it needs no decoding.
    private static func readKey(_ c: inout JSONCursor) throws(JSONSyntaxError) -> Key {
        let start = c.index
        if let plain = try c.scanPlainString() { return Key(bytes: plain, decoded: nil) }
        c.index = start
        return Key(bytes: nil, decoded: try c.parseString())
    }
}
