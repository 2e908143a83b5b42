import SkillGateCore

/// String values of `OpenAIChatJSONScanner`, with escapes decoded and UTF-8 validated.
extension OpenAIChatJSONScanner {
    /// The string at the cursor.
    mutating func string() throws -> String {
        ws()
        guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        i += 1
        let start = i
        while i < b.count {  // fast path: no escapes
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                guard let s = String(validating: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self) else {
                    throw fail("string is not valid UTF-8")
                }
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("unescaped control character in a string") }
            i += 1
        }
        var out = [UInt8](UnsafeBufferPointer(rebasing: b[start..<i]))
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw fail("string is not valid UTF-8") }
                return s
            }
            if c < 0x20 { throw fail("unescaped control character in a string") }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            guard i + 1 < b.count else { break }
            let e = b[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"): try appendUnicodeEscape(to: &out)
            default: i -= 1; throw fail("invalid escape in a string")
            }
        }
        throw fail("unterminated string")
    }

    /// Decodes the `XXXX` of `\uXXXX` (and a following low surrogate) at the cursor;
    /// lone surrogates are rejected, as the full parser does.
    private mutating func appendUnicodeEscape(to out: inout [UInt8]) throws {
        var value = try hex4()
        if (0xD800..<0xDC00).contains(value) {
            guard i + 1 < b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else {
                throw fail("lone high surrogate in \\u escape")
            }
            i += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("high surrogate not followed by a low one in \\u escape") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(value) {
            throw fail("lone low surrogate in \\u escape")
        }
        UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { out.append($0) }
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= b.count else { throw fail("unterminated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c - 0x30
            case 0x41...0x46: d = c - 0x41 + 10
            case 0x61...0x66: d = c - 0x61 + 10
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }
}
