/// Skipping values without building them: the same grammar as `parseValue` (same walks, same
/// errors), but no allocation. `JSONCursor` uses these for the members a reader does not need.
extension JSONParser {
    /// Moves past the value at the cursor, checking its syntax.
    public mutating func skipValue() throws(JSONSyntaxError) {
        guard let byte = next else { throw noValueError() }
        switch byte {
        case UInt8(ascii: "{"): try walkObject(key: { (p) throws(JSONSyntaxError) in try p.skipString() }) { (p, _) throws(JSONSyntaxError) in try p.skipValue() }
        case UInt8(ascii: "["): try walkArray { (p) throws(JSONSyntaxError) in try p.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        default: throw noValueError()
        }
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
