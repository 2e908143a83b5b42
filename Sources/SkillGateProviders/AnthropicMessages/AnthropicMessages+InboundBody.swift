import SkillGateCore

/// Parsing a Messages API request body with a `ToolListCache`: the document as the tree `JSONValue.parse` builds, but
/// for a `tools` array this caller sent before, byte for byte, which is taken checked from the cache instead of being
/// read into a tree and decoded again (an agent sends the same tools, often tens of kilobytes of schemas, on every
/// turn; decision 0057 did the same for Chat Completions).
///
/// The document is read by `JSONCursor`, SkillGate's one JSON grammar, so it is accepted or refused exactly as
/// `JSONValue.parse(_:duplicateKeys: .refused)` would, with the same error: a body that names a key twice in any object
/// is refused (decision 0093), so there is one `tools` member at most.
struct AnthropicInboundBody {
    /// The body as a tree; without `tools` when `cachedTools` is set.
    var root: JSONValue
    /// The checked tools, when the cache had the `tools` array's bytes.
    var cachedTools: [ToolDefinition]?
    /// The `tools` array's bytes, when the cache did not have them: kept once the request decodes.
    var uncachedToolBytes: [UInt8]?

    /// Parses `body`, looking the `tools` array up in `toolCache` by its bytes in `scope`.
    static func parse(_ body: [UInt8], toolCache: ToolListCache, scope: String) throws(JSONSyntaxError) -> AnthropicInboundBody {
        try body.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> AnthropicInboundBody in
            try JSONCursor.read(buffer, duplicateKeys: .refused) { (c) throws(JSONSyntaxError) -> AnthropicInboundBody in
                var members: [JSONObject.Member] = []
                members.reserveCapacity(12)   // model, max_tokens, messages, tools, system and a few settings
                var cachedTools: [ToolDefinition]?
                var uncachedToolBytes: [UInt8]?
                let isObject = try c.readObject { (c, key) throws(JSONSyntaxError) in
                    if key == "tools" {
                        switch try toolCache.read(&c, scope: scope, { (c) throws(JSONSyntaxError) in try c.readValue() }) {
                        case .cached(let tools):
                            cachedTools = tools
                            return
                        case .read(let tools, let bytes):
                            uncachedToolBytes = bytes
                            members.append(JSONObject.Member(key: "tools", value: tools))
                            return
                        case .notAnArray:
                            break
                        }
                    }
                    members.append(JSONObject.Member(key: key.string, value: try c.readValue()))
                }
                let root = isObject ? JSONValue.object(JSONObject(members)) : try c.readValue()
                return AnthropicInboundBody(root: root, cachedTools: cachedTools, uncachedToolBytes: uncachedToolBytes)
            }
        }
    }
}
