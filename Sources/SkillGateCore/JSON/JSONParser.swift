/// A JSON syntax error with the byte offset where it was found.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong ("expected ':' after an object key").
    public var reason: String
    /// Byte offset into the input.
    public var offset: Int
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// Parses a complete JSON document (RFC 8259). Rejects invalid UTF-8, trailing garbage and
    /// nesting deeper than `maxDepth`.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 256) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { parse(buffer: $0, maxDepth: maxDepth) }.get()
    }

    /// Parses a complete JSON document from any byte collection.
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 256) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { parse(buffer: $0, maxDepth: maxDepth) }
            ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, maxDepth: maxDepth) }
        return try result.get()
    }

    /// Parses a complete JSON document from a string.
    public static func parse(_ text: String, maxDepth: Int = 256) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        return try text.withUTF8 { parse(buffer: $0, maxDepth: maxDepth) }.get()
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Result<JSONValue, JSONSyntaxError> {
        var parser = JSONParser(buffer: buffer, maxDepth: maxDepth)
        do { return .success(try parser.parseDocument()) } catch { return .failure(error) }
    }
}

/// A recursive-descent JSON parser over a byte buffer.
struct JSONParser {
    let buffer: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0

    init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.buffer = buffer
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index != buffer.count { throw fail("unexpected content after the JSON value") }
        return value
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

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < buffer.count else { throw fail("unexpected end of input") }
        switch buffer[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character '\(Unicode.Scalar(buffer[index]))'")
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

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var members: [JSONObject.Member] = []
        members.reserveCapacity(8)
        skipWhitespace()
        if index < buffer.count, buffer[index] == UInt8(ascii: "}") {
            index += 1; depth -= 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < buffer.count, buffer[index] == UInt8(ascii: "\"") else {
                throw fail("expected a string key in an object")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < buffer.count, buffer[index] == UInt8(ascii: ":") else {
                throw fail("expected ':' after an object key")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < buffer.count else { throw fail("unexpected end of input inside an object") }
            if buffer[index] == UInt8(ascii: ",") { index += 1; continue }
            if buffer[index] == UInt8(ascii: "}") { index += 1; break }
            throw fail("expected ',' or '}' in an object")
        }
        depth -= 1
        return .object(JSONObject(members))
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        elements.reserveCapacity(4)
        skipWhitespace()
        if index < buffer.count, buffer[index] == UInt8(ascii: "]") {
            index += 1; depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < buffer.count else { throw fail("unexpected end of input inside an array") }
            if buffer[index] == UInt8(ascii: ",") { index += 1; continue }
            if buffer[index] == UInt8(ascii: "]") { index += 1; break }
            throw fail("expected ',' or ']' in an array")
        }
        depth -= 1
        return .array(elements)
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        try scanNumber()
        let slice = UnsafeBufferPointer(rebasing: buffer[start..<index])
        return .number(String(decoding: slice, as: UTF8.self))
    }

    /// Moves past the number at `index`, checking its syntax.
    mutating func scanNumber() throws(JSONSyntaxError) {
        if buffer[index] == UInt8(ascii: "-") { index += 1 }
        guard index < buffer.count, isDigit(buffer[index]) else { throw fail("invalid number") }
        if buffer[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < buffer.count, isDigit(buffer[index]) { index += 1 }
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: ".") {
            index += 1
            guard index < buffer.count, isDigit(buffer[index]) else { throw fail("invalid number: digit expected after '.'") }
            while index < buffer.count, isDigit(buffer[index]) { index += 1 }
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: "e") || buffer[index] == UInt8(ascii: "E") {
            index += 1
            if index < buffer.count, buffer[index] == UInt8(ascii: "+") || buffer[index] == UInt8(ascii: "-") { index += 1 }
            guard index < buffer.count, isDigit(buffer[index]) else { throw fail("invalid number: digit expected in exponent") }
            while index < buffer.count, isDigit(buffer[index]) { index += 1 }
        }
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

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
