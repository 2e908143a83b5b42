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
        let parsed = try parse(body, keeping: key, toolCache: nil, scope: "")
        return (parsed.json, parsed.kept)
    }

    /// What `parse(_:toolCache:scope:)` read.
    struct Parsed {
        /// The document as a tree; without `tools` when `cachedTools` is set.
        var json: JSONValue
        /// The kept member's bytes without line breaks.
        var kept: [UInt8]?
        /// The checked tools, when the cache had the first `tools` array's bytes.
        var cachedTools: [ToolDefinition]?
        /// The first `tools` array's bytes, when the cache did not have them: kept once the request decodes.
        var uncachedToolBytes: [UInt8]?
    }

    /// As `parse(_:keeping:)`, and with `toolCache`, the first `tools` array is looked up there by its bytes in `scope`
    /// (`ToolListCache.read`): a hit skips reading it into a tree and decoding it again.
    static func parse(_ body: [UInt8], keeping key: StaticString, toolCache: ToolListCache?, scope: String) throws(JSONSyntaxError) -> Parsed {
        try body.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) -> Parsed in
            var kept: Range<Int>?
            var sawTools = false
            var cachedTools: [ToolDefinition]?
            var uncachedToolBytes: [UInt8]?
            let json = try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) -> JSONValue in
                guard c.kind == .object else { return try c.readValue() }
                var members: [JSONObject.Member] = []
                members.reserveCapacity(16)
                _ = try c.readObject { (c, name) throws(JSONSyntaxError) in
                    let start = c.offset
                    var value: JSONValue?
                    if let toolCache, !sawTools, name == "tools" {
                        sawTools = true
                        switch try toolCache.read(&c, scope: scope, { (c) throws(JSONSyntaxError) in try c.readValue() }) {
                        case .cached(let tools): cachedTools = tools
                        case .read(let tools, let bytes): value = tools; uncachedToolBytes = bytes
                        case .notAnArray: value = try c.readValue()
                        }
                    } else {
                        value = try c.readValue()
                    }
                    if kept == nil, name == key { kept = start..<c.offset }
                    if let value { members.append(JSONObject.Member(key: name.string, value: value)) }
                }
                return .object(JSONObject(members))
            }
            return Parsed(json: json, kept: kept.map { withoutLineBreaks(UnsafeBufferPointer(rebasing: buffer[$0])) },
                          cachedTools: cachedTools, uncachedToolBytes: uncachedToolBytes)
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
