import SkillGateCore

/// Parsing a Chat Completions request body: the whole document as a tree, except the tools' parameter
/// schemas, which stay compact JSON text (`ToolSchema`). A request passed on to an OpenAI-compatible
/// provider then copies each schema's bytes instead of building its tree and writing it out again; schemas
/// are most of a tool-using request's JSON (decision 0039).
///
/// The document is read by `JSONCursor`, SkillGate's one JSON grammar, so it is accepted or refused exactly
/// as `JSONValue.parse` would, with the same error. The tree it returns is the one `JSONValue.parse` builds,
/// but for each captured schema, which is an empty object in the tree (so the shape checks still see an
/// object) and the schema in `schemas`.
struct OpenAIChatInboundBody {
    /// The body as a tree.
    var json: JSONValue
    /// Per element of `tools`, the schema captured from `function.parameters`, when it was an object.
    var schemas: [ToolSchema?] = []
    /// The checked tools, when the cache had the `tools` array's bytes; the tree then has no `tools` member.
    var cachedTools: [ToolDefinition]?
    /// The `tools` array's bytes, when the cache was asked and did not have them: kept once the request decodes.
    var uncachedToolBytes: [UInt8]?

    /// Parses `body`. With `toolCache`, the `tools` array is first looked up there by its bytes in `scope`.
    static func parse(_ body: [UInt8], toolCache: ToolListCache? = nil, scope: String = "") throws(JSONSyntaxError) -> OpenAIChatInboundBody {
        try body.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> OpenAIChatInboundBody in
            try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) -> OpenAIChatInboundBody in
                var members: [JSONObject.Member] = []
                members.reserveCapacity(12)   // model, messages, tools, and a few settings: one allocation
                var schemas: [ToolSchema?]?
                var cachedTools: [ToolDefinition]?
                var uncachedToolBytes: [UInt8]?
                let isObject = try c.readObject { (c, key) throws(JSONSyntaxError) in
                    // The first `tools` only: a tree lookup finds the first of duplicated keys too.
                    if schemas == nil, key == "tools" {
                        var found: [ToolSchema?] = []
                        // A list this caller sent before: recognised by the bytes ahead, without reading them.
                        if let toolCache, let hit = toolCache.tools(atStartOf: c.bytesAhead, scope: scope) {
                            c.skipRecognisedValue(length: hit.length)
                            schemas = []
                            cachedTools = hit.tools
                            return
                        }
                        if let toolCache, let bytes = try c.readArrayBytes() {
                            schemas = []
                            if let tools = toolCache.tools(for: bytes, scope: scope) {
                                cachedTools = tools
                                return
                            }
                            // Already checked in full by `readArrayBytes`: read again from its own bytes.
                            let tools = try JSONCursor.read(bytes) { (c) throws(JSONSyntaxError) in try readTools(&c, schemas: &found) }
                            if bytes.count <= toolCache.maxEntryBytes { uncachedToolBytes = Array(bytes) }
                            schemas = found
                            members.append(JSONObject.Member(key: "tools", value: tools ?? .array([])))
                            return
                        }
                        if let tools = try readTools(&c, schemas: &found) {
                            schemas = found
                            members.append(JSONObject.Member(key: "tools", value: tools))
                            return
                        }
                        schemas = []
                    }
                    members.append(JSONObject.Member(key: key.string, value: try c.readValue()))
                }
                guard isObject else { return OpenAIChatInboundBody(json: try c.readValue()) }
                return OpenAIChatInboundBody(json: .object(JSONObject(members)), schemas: schemas ?? [],
                                             cachedTools: cachedTools, uncachedToolBytes: uncachedToolBytes)
            }
        }
    }

    /// The `tools` array with each element's first `function` member's first `parameters` member captured
    /// when it is an object; `nil`, consuming nothing, when `tools` is not an array.
    private static func readTools(_ c: inout JSONCursor, schemas: inout [ToolSchema?]) throws(JSONSyntaxError) -> JSONValue? {
        var elements: [JSONValue] = []
        elements.reserveCapacity(8)
        schemas.reserveCapacity(8)
        let isArray = try c.readArray { (c) throws(JSONSyntaxError) in
            var schema: ToolSchema?
            var tool: [JSONObject.Member] = []
            tool.reserveCapacity(2)   // type, function
            var seenFunction = false
            let isObject = try c.readObject { (c, key) throws(JSONSyntaxError) in
                if !seenFunction, key == "function" {
                    seenFunction = true
                    var function: [JSONObject.Member] = []
                    function.reserveCapacity(4)   // name, description, parameters, strict
                    var seenParameters = false
                    let isFunctionObject = try c.readObject { (c, key) throws(JSONSyntaxError) in
                        if !seenParameters, key == "parameters" {
                            seenParameters = true
                            if let bytes = try c.readObjectBytes() {
                                schema = ToolSchema(checkedObject: bytes)
                                function.append(JSONObject.Member(key: "parameters", value: .object(JSONObject())))
                                return
                            }
                        }
                        function.append(JSONObject.Member(key: key.string, value: try c.readValue()))
                    }
                    tool.append(JSONObject.Member(key: "function", value: isFunctionObject ? .object(JSONObject(function)) : try c.readValue()))
                    return
                }
                tool.append(JSONObject.Member(key: key.string, value: try c.readValue()))
            }
            elements.append(isObject ? .object(JSONObject(tool)) : try c.readValue())
            schemas.append(schema)
        }
        return isArray ? .array(elements) : nil
    }
}
