import Glibc
import SkillGateCore

/// The raw bytes of the request's top-level `tools` member, kept while the body is parsed: the `response` object
/// repeats the request's `tools` (most of its size), and copying their bytes costs less than writing their parsed tree
/// again. The parser says where the member's value starts and ends, so keeping it costs one copy (and, only for a
/// pretty-printed body, dropping its line breaks: a streamed `response` snapshot sits on one SSE `data:` line).
/// With a `ToolListCache`, the same member is looked up there by its bytes (decision 0069).
enum ResponsesRawMember {
    /// What `parse(_:toolCache:scope:)` read.
    struct Parsed {
        /// The document as `JSONValue.parse` gives it; without `tools` when `cachedTools` is set.
        var json: JSONValue
        /// The bytes of the top-level `tools` member without line breaks (nil when the document is not an object or has
        /// no such member; a body that names a key twice is refused, decision 0093).
        var toolsBytes: [UInt8]?
        /// The checked tools, when the cache had the `tools` array's bytes.
        var cachedTools: [ToolDefinition]?
        /// The `tools` array's bytes, when the cache did not have them: kept once the request decodes.
        var uncachedToolBytes: [UInt8]?
    }

    /// Parses `body` (refusing an object that names a key twice, as for every body a client sends), keeping the `tools`
    /// member's bytes; with `toolCache`, that array is looked up there by its bytes in `scope` (`ToolListCache.read`):
    /// a hit skips reading it into a tree and decoding it again.
    static func parse(_ body: [UInt8], toolCache: ToolListCache?, scope: String) throws(JSONSyntaxError) -> Parsed {
        try body.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) -> Parsed in
            var tools: Range<Int>?
            var cachedTools: [ToolDefinition]?
            var uncachedToolBytes: [UInt8]?
            let json = try JSONCursor.read(buffer, duplicateKeys: .refused) { (c) throws(JSONSyntaxError) -> JSONValue in
                guard c.kind == .object else { return try c.readValue() }
                var members: [JSONObject.Member] = []
                members.reserveCapacity(16)
                _ = try c.readObject { (c, name) throws(JSONSyntaxError) in
                    let start = c.offset
                    guard name == "tools" else {
                        members.append(JSONObject.Member(key: name.string, value: try c.readValue()))
                        return
                    }
                    var value: JSONValue?
                    if let toolCache {
                        switch try toolCache.read(&c, scope: scope, { (c) throws(JSONSyntaxError) in try c.readValue() }) {
                        case .cached(let list): cachedTools = list
                        case .read(let list, let bytes): value = list; uncachedToolBytes = bytes
                        case .notAnArray: value = try c.readValue()
                        }
                    } else {
                        value = try c.readValue()
                    }
                    tools = start..<c.offset
                    if let value { members.append(JSONObject.Member(key: name.string, value: value)) }
                }
                return .object(JSONObject(members))
            }
            return Parsed(json: json, toolsBytes: tools.map { withoutLineBreaks(UnsafeBufferPointer(rebasing: buffer[$0])) },
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
