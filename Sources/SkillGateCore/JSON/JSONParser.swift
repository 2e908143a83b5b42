/// A JSON syntax error with the byte offset where it was found.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong ("expected ':' after an object key").
    public var reason: String
    /// Byte offset into the input.
    public var offset: Int
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// How deeply objects and arrays may nest before a document is rejected ("nesting deeper than
    /// 256 levels"), for every reader of SkillGate: `JSONValue.parse` and `JSONCursor.read` take it
    /// as their default, so a wire format cannot accept what another one rejects. It bounds the
    /// parser's recursion; real payloads (tool schemas included) stay far below it.
    public static let defaultMaxDepth = 256

    /// Parses a complete JSON document (RFC 8259). Rejects invalid UTF-8, trailing garbage,
    /// nesting deeper than `maxDepth` and, with `duplicateKeys: .refused` (a body a client sent),
    /// an object that names a key twice.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth,
                             duplicateKeys: JSONDuplicateKeys = .allowed) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { parse(buffer: $0, maxDepth: maxDepth, duplicateKeys: duplicateKeys) }.get()
    }

    /// Parses a complete JSON document from any byte collection.
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth,
                             duplicateKeys: JSONDuplicateKeys = .allowed) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { parse(buffer: $0, maxDepth: maxDepth, duplicateKeys: duplicateKeys) }
            ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, maxDepth: maxDepth, duplicateKeys: duplicateKeys) }
        return try result.get()
    }

    /// Parses a complete JSON document from a string.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth,
                             duplicateKeys: JSONDuplicateKeys = .allowed) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        return try text.withUTF8 { parse(buffer: $0, maxDepth: maxDepth, duplicateKeys: duplicateKeys) }.get()
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int,
                              duplicateKeys: JSONDuplicateKeys) -> Result<JSONValue, JSONSyntaxError> {
        var parser = JSONParser(buffer: buffer, maxDepth: maxDepth, duplicateKeys: duplicateKeys)
        do { return .success(try parser.parseDocument()) } catch { return .failure(error) }
    }
}

/// The one JSON grammar of SkillGate, over a byte buffer: a recursive-descent parser that builds
/// `JSONValue`s (`parseValue`), skips values while checking them (`skipValue`, in
/// `JSONParser+Skip.swift`) and walks objects and arrays (`JSONParser+Containers.swift`). It is
/// the same type as `JSONCursor`, whose public methods are this grammar's readers, so the tree
/// parser and the pull reader accept and reject the same documents, with the same error at the
/// same offset, and a cursor hands itself to a reader's closures without copying.
typealias JSONParser = JSONCursor

extension JSONParser {
    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        try expectEndOfDocument()
        return value
    }

    /// After the top-level value: only whitespace may follow.
    mutating func expectEndOfDocument() throws(JSONSyntaxError) {
        skipWhitespace()
        if index != buffer.count { throw fail("unexpected content after the JSON value") }
    }

    func fail(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(reason: reason, offset: index) }

    mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The first byte of the value at `index`, or `nil` at the end of the input.
    var next: UInt8? { index < buffer.count ? buffer[index] : nil }

    /// The error for the byte at `index` when no value starts with it (or the input ended).
    func noValueError() -> JSONSyntaxError {
        guard let byte = next else { return fail("unexpected end of input") }
        if index == 0, buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
            return fail("the text starts with a UTF-8 byte order mark (EF BB BF), which JSON must not have (RFC 8259 §8.1); save or send the JSON without one")
        }
        // A byte outside printable ASCII is named by its value: shown as a character it would read as something else
        // (0xEF as 'ï').
        guard byte >= 0x20, byte < 0x7F else {
            return fail("unexpected byte 0x\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true))")
        }
        return fail("unexpected character '\(Unicode.Scalar(byte))'")
    }

    /// The value at `index` (whitespace before it already skipped). Dispatches on the first byte
    /// itself, as `skipValue` and `JSONCursor.kind` do: a shared classification first costs a
    /// second dispatch per value (1–2 % of a parse).
    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard let byte = next else { throw noValueError() }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        default: throw noValueError()
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= buffer.count else { throw fail("unexpected end of input") }
        let start = literal.utf8Start
        for i in 0..<count where buffer[index + i] != start[i] {
            throw fail("invalid literal")
        }
        index += count
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        var members: [JSONObject.Member] = []
        members.reserveCapacity(8)
        try walkObject(key: { (p) throws(JSONSyntaxError) in try p.parseString() }) { (p, key) throws(JSONSyntaxError) in
            members.append(JSONObject.Member(key: key, value: try p.parseValue()))
        }
        return .object(JSONObject(members))
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        var elements: [JSONValue] = []
        elements.reserveCapacity(4)
        try walkArray { (p) throws(JSONSyntaxError) in elements.append(try p.parseValue()) }
        return .array(elements)
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        try scanNumber()
        let slice = UnsafeBufferPointer(rebasing: buffer[start..<index])
        return .number(String(decoding: slice, as: UTF8.self))
    }

    /// Moves `index` from a string's opening quote to the first byte that ends its plain part (a
    /// quote, a backslash or a control byte). Returns where the content starts and the OR of the
    /// bytes passed (bit 7: some were non-ASCII).
    @inline(__always) mutating func scanToStringStop() -> (start: Int, high: UInt8) {
        index += 1  // opening quote
        let start = index
        var high: UInt8 = 0
        index = ByteScan.jsonStringStop(in: buffer.baseAddress!, from: index, to: buffer.count, high: &high)
        return (start, high)
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        // Fast path: no escapes; ASCII-only strings (most keys and values) need no UTF-8 validation.
        let (start, high) = scanToStringStop()
        let count = buffer.count
        if index < count, buffer[index] == UInt8(ascii: "\"") {
            let slice = UnsafeBufferPointer(rebasing: buffer[start..<index])
            index += 1
            if high < 0x80 { return String(decoding: slice, as: UTF8.self) }
            guard let s = String(validating: slice, as: UTF8.self) else {
                throw JSONSyntaxError(reason: "string is not valid UTF-8", offset: start)
            }
            return s
        }
        if index < count, buffer[index] < 0x20 { throw fail("unescaped control character in a string") }
        guard index < count else { throw fail("unterminated string") }
        return try parseEscapedString(from: start, high: high)
    }
}
