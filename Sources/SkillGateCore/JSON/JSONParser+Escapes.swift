/// Strings with escapes: decoded (`parseEscapedString`) or only checked (`skipEscapedString`),
/// with the same errors either way.
extension JSONParser {
    /// The slow path of `parseString`: `index` is at the first backslash of a string whose
    /// content starts at `start`. Finds the closing quote first (escapes only ever shrink the
    /// text, so its distance bounds the decoded size), then decodes into one temporary buffer,
    /// copying the runs between escapes in bulk.
    mutating func parseEscapedString(from start: Int, high rawHigh: UInt8) throws(JSONSyntaxError) -> String {
        var high = rawHigh
        let end = try escapedStringEnd(high: &high)
        let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - start) { out -> Result<String, JSONSyntaxError> in
            do {
                let length = try decodeEscapes(from: start, to: end, into: out)
                let decoded = UnsafeBufferPointer(rebasing: out[0..<length])
                // Escapes decode to valid UTF-8 by construction; only raw non-ASCII bytes need checking.
                if high < 0x80 { return .success(String(decoding: decoded, as: UTF8.self)) }
                guard let s = String(validating: decoded, as: UTF8.self) else {
                    return .failure(JSONSyntaxError(reason: "string is not valid UTF-8", offset: start))
                }
                return .success(s)
            } catch let error as JSONSyntaxError {
                return .failure(error)
            } catch {
                return .failure(JSONSyntaxError(reason: "\(error)", offset: start))
            }
        }
        index = end + 1
        return try result.get()
    }

    /// The index of the closing quote of a string whose first backslash is at `index`; ORs the
    /// raw bytes into `high`. Throws on a control character or a missing closing quote. Every
    /// string with an escape comes through here, read or skipped: it sets `sawEscape`.
    mutating func escapedStringEnd(high: inout UInt8) throws(JSONSyntaxError) -> Int {
        sawEscape = true
        let count = buffer.count
        var end = index
        while end < count {
            let b = buffer[end]
            if b == UInt8(ascii: "\\") { end += 2; continue }
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { index = end; throw fail("unescaped control character in a string") }
            high |= b
            end = ByteScan.jsonStringStop(in: buffer.baseAddress!, from: end + 1, to: count, high: &high)
        }
        guard end < count else { index = min(end, count); throw fail("unterminated string") }
        return end
    }

    /// Checks a string with escapes as `parseEscapedString` does (same errors), without building it.
    mutating func skipEscapedString(from start: Int, high rawHigh: UInt8) throws(JSONSyntaxError) {
        var high = rawHigh
        let end = try escapedStringEnd(high: &high)
        _ = try decodeEscapes(from: start, to: end, into: nil)
        // Escapes are ASCII and decode to whole characters, so the raw bytes are valid UTF-8
        // exactly when the decoded ones are.
        if high >= 0x80, (try? UTF8Span(validating: UnsafeBufferPointer(rebasing: buffer[start..<end]).span)) == nil {
            throw JSONSyntaxError(reason: "string is not valid UTF-8", offset: start)
        }
        index = end + 1
    }

    /// Decodes the string content `buffer[start..<end]` (no closing quote inside) into `out`,
    /// which holds at least `end - start` bytes. Returns the decoded length.
    /// With `out` `nil`, only checks the escapes.
    mutating func decodeEscapes(from start: Int, to end: Int, into out: UnsafeMutableBufferPointer<UInt8>?) throws(JSONSyntaxError) -> Int {
        var written = 0
        var i = start
        @inline(__always) func put(_ b: UInt8) {
            if let out { out[written] = b }
            written += 1
        }
        while i < end {
            // A run without escapes, copied at once.
            var ignored: UInt8 = 0
            let runEnd = ByteScan.jsonStringStop(in: buffer.baseAddress!, from: i, to: end, high: &ignored)
            if runEnd > i {
                if let out { (out.baseAddress! + written).update(from: buffer.baseAddress! + i, count: runEnd - i) }
                written += runEnd - i
                i = runEnd
            }
            guard i < end else { break }
            index = i + 1
            let e = buffer[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): put(0x22)
            case UInt8(ascii: "\\"): put(0x5C)
            case UInt8(ascii: "/"): put(0x2F)
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4(limit: end)
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard index + 1 < end, buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u") else {
                        throw fail("lone high surrogate in \\u escape")
                    }
                    index += 2
                    let low = try parseHex4(limit: end)
                    guard low >= 0xDC00 && low < 0xE000 else { throw fail("invalid low surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw fail("lone low surrogate in \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                for b in UTF8.encode(u)! { put(b) }
            default:
                index -= 1
                throw fail("invalid escape '\\\(Unicode.Scalar(e))'")
            }
            i = index
        }
        return written
    }

    mutating func parseHex4(limit: Int) throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= limit else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = buffer[index]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
