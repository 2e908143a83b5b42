import SkillGateCore

/// The bytes of one member of a request's top-level object, without insignificant whitespace: the `response`
/// object repeats the request's `tools` (most of its size), and copying them costs less than writing their
/// parsed tree again. Only for bodies the JSON parser has accepted; anything unexpected gives nil (the caller
/// then writes the parsed value).
enum ResponsesRawMember {
    static func compactValue(of key: StaticString, in body: [UInt8]) -> [UInt8]? {
        body.withUnsafeBufferPointer { b -> [UInt8]? in
            var i = 0
            func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }
            /// Moves past the string starting at `i` (a quote); returns its raw content range.
            func skipString() -> Range<Int>? {
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
                let start = i + 1
                i += 1
                while i < b.count {
                    if b[i] == UInt8(ascii: "\\") { i += 2; continue }
                    if b[i] == UInt8(ascii: "\"") { i += 1; return start..<(i - 1) }
                    i += 1
                }
                return nil
            }
            /// Moves past the value starting at `i`.
            func skipValue() -> Bool {
                guard i < b.count else { return false }
                switch b[i] {
                case UInt8(ascii: "\""):
                    return skipString() != nil
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    var depth = 0
                    while i < b.count {
                        let c = b[i]
                        if c == UInt8(ascii: "\"") { guard skipString() != nil else { return false }; continue }
                        if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                            depth += 1
                        } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                            depth -= 1
                            if depth == 0 { i += 1; return true }
                        }
                        i += 1
                    }
                    return false
                default:  // a number, true, false or null
                    while i < b.count, b[i] != UInt8(ascii: ","), b[i] != UInt8(ascii: "}"), b[i] > 0x20 { i += 1 }
                    return true
                }
            }
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "{") else { return nil }
            i += 1
            while true {
                skipSpace()
                guard let name = skipString() else { return nil }
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                skipSpace()
                let valueStart = i
                guard skipValue() else { return nil }
                let matches = key.withUTF8Buffer { k in k.count == name.count && zip(k, b[name]).allSatisfy { $0 == $1 } }
                if matches { return compact(b[valueStart..<i]) }
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
        }
    }

    /// `bytes` without whitespace outside strings.
    private static func compact(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false, escaped = false
        for c in bytes {
            if inString {
                if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") { inString = false }
                out.append(c)
            } else if c == UInt8(ascii: "\"") {
                inString = true
                out.append(c)
            } else if c != 0x20 && c != 0x0A && c != 0x0D && c != 0x09 {
                out.append(c)
            }
        }
        return out
    }
}
