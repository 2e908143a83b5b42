/// Skipping values without building them: the same checks, in the same order and with the same
/// errors, as `parseValue`, but no allocation. `JSONCursor` uses these for the members a reader
/// does not need.
extension JSONParser {
    /// Moves past the value at `index` (whitespace before it already skipped), checking its syntax.
    mutating func skipValue() throws(JSONSyntaxError) {
        guard index < buffer.count else { throw fail("unexpected end of input") }
        switch buffer[index] {
        case UInt8(ascii: "{"): try skipObject()
        case UInt8(ascii: "["): try skipArray()
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        default: throw fail("unexpected character '\(Unicode.Scalar(buffer[index]))'")
        }
    }

    private mutating func skipObject() throws(JSONSyntaxError) {
        try enter()
        index += 1
        skipWhitespace()
        if index < buffer.count, buffer[index] == UInt8(ascii: "}") {
            index += 1; depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard index < buffer.count, buffer[index] == UInt8(ascii: "\"") else {
                throw fail("expected a string key in an object")
            }
            try skipString()
            skipWhitespace()
            guard index < buffer.count, buffer[index] == UInt8(ascii: ":") else {
                throw fail("expected ':' after an object key")
            }
            index += 1
            skipWhitespace()
            try skipValue()
            skipWhitespace()
            guard index < buffer.count else { throw fail("unexpected end of input inside an object") }
            if buffer[index] == UInt8(ascii: ",") { index += 1; continue }
            if buffer[index] == UInt8(ascii: "}") { index += 1; break }
            throw fail("expected ',' or '}' in an object")
        }
        depth -= 1
    }

    private mutating func skipArray() throws(JSONSyntaxError) {
        try enter()
        index += 1
        skipWhitespace()
        if index < buffer.count, buffer[index] == UInt8(ascii: "]") {
            index += 1; depth -= 1
            return
        }
        while true {
            skipWhitespace()
            try skipValue()
            skipWhitespace()
            guard index < buffer.count else { throw fail("unexpected end of input inside an array") }
            if buffer[index] == UInt8(ascii: ",") { index += 1; continue }
            if buffer[index] == UInt8(ascii: "]") { index += 1; break }
            throw fail("expected ',' or ']' in an array")
        }
        depth -= 1
    }

    /// Moves past the string at `index`, checking it as `parseString` does.
    mutating func skipString() throws(JSONSyntaxError) {
        _ = try scanPlainString()
    }

    /// Moves past the string at `index`. Returns its content bytes when it has no escapes and is
    /// ASCII (so it needs no decoding); otherwise checks it and returns `nil`.
    mutating func scanPlainString() throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8>? {
        let (start, high) = scanToStringStop()
        let count = buffer.count
        if index < count, buffer[index] == UInt8(ascii: "\"") {
            let slice = UnsafeBufferPointer(rebasing: buffer[start..<index])
            index += 1
            if high < 0x80 { return slice }
            guard (try? UTF8Span(validating: slice.span)) != nil else {
                throw JSONSyntaxError(reason: "string is not valid UTF-8", offset: start)
            }
            return nil
        }
        if index < count, buffer[index] < 0x20 { throw fail("unescaped control character in a string") }
        guard index < count else { throw fail("unterminated string") }
        try skipEscapedString(from: start, high: high)
        return nil
    }
}
