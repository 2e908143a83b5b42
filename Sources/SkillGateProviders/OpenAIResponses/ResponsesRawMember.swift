import Glibc
import SkillGateCore

/// The raw bytes of one member of a request's top-level object, kept while the body is parsed: the `response`
/// object repeats the request's `tools` (most of its size), and copying their bytes costs less than writing
/// their parsed tree again. The parser says where the member's value starts and ends, so keeping it costs one
/// copy (and, only for a pretty-printed body, dropping its line breaks: a streamed `response` snapshot sits on
/// one SSE `data:` line).
enum ResponsesRawMember {
    /// The document as `JSONValue.parse` gives it, and the bytes of the top-level member `key` (nil when the
    /// document is not an object or has no such member; with duplicate keys, the first, which is the one the
    /// parsed object's subscript reads).
    static func parse(_ body: [UInt8], keeping key: StaticString) throws(JSONSyntaxError) -> (json: JSONValue, kept: [UInt8]?) {
        try body.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) -> (json: JSONValue, kept: [UInt8]?) in
            var kept: Range<Int>?
            let json = try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) -> JSONValue in
                guard c.kind == .object else { return try c.readValue() }
                var members: [JSONObject.Member] = []
                members.reserveCapacity(16)
                _ = try c.readObject { (c, name) throws(JSONSyntaxError) in
                    let start = c.offset
                    let value = try c.readValue()
                    if kept == nil, name == key { kept = start..<c.offset }
                    members.append(JSONObject.Member(key: name.string, value: value))
                }
                return .object(JSONObject(members))
            }
            return (json, kept.map { withoutLineBreaks(UnsafeBufferPointer(rebasing: buffer[$0])) })
        }
    }

    /// `bytes` (one JSON value the parser accepted) without CR and LF; in a valid document they can only be
    /// whitespace between tokens (inside strings they are escaped), so dropping them keeps the value.
    static func withoutLineBreaks(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard let base = bytes.baseAddress, !bytes.isEmpty,
              memchr(base, 0x0A, bytes.count) != nil || memchr(base, 0x0D, bytes.count) != nil else { return Array(bytes) }
        return bytes.filter { $0 != 0x0A && $0 != 0x0D }
    }
}
