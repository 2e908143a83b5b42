/// Skipping values without building them: the same grammar as `parseValue` (same walks, same
/// errors), but no allocation. `JSONCursor` uses these for the members a reader does not need.
extension JSONParser {
    /// Moves past the value at the cursor, checking its syntax.
    public mutating func skipValue() throws(JSONSyntaxError) {
        switch try valueStart() {
        case .object: try walkObject(key: { (p) throws(JSONSyntaxError) in try p.skipString() }) { (p, _) throws(JSONSyntaxError) in try p.skipValue() }
        case .array: try walkArray { (p) throws(JSONSyntaxError) in try p.skipValue() }
        case .string: try skipString()
        case .number: try scanNumber()
        case .true: try expectLiteral("true")
        case .false: try expectLiteral("false")
        case .null: try expectLiteral("null")
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
