import SkillGateCore

/// Parsing a Chat Completions request body straight into the members decoding reads (`OpenAIChatInboundFields`), with
/// no tree of the top level: members decoding ignores are skipped (and checked), and an object anywhere in the body
/// that names a key twice is refused (`JSONDuplicateKeys.refused`, decision 0093). The `messages` array is read
/// straight into messages when it can be (`InboundMessages.read`), and the tools' parameter schemas stay compact JSON
/// text (`ToolSchema`): a request passed on to an OpenAI-compatible provider then copies each schema's bytes instead of
/// building its tree and writing it out again; schemas are most of a tool-using request's JSON (decision 0039). Other
/// members' values are trees.
///
/// The document is read by `JSONCursor`, SkillGate's one JSON grammar, so it is accepted or refused exactly as
/// `JSONValue.parse(_:duplicateKeys: .refused)` would, with the same error, and the fields are those of
/// `JSONValue.parse`'s tree, but for each captured schema, which is an empty object in `tools` (so the shape checks
/// still see an object) and the schema in `schemas`.
struct OpenAIChatInboundBody {
    /// The members decoding reads (for a body that is an object).
    var fields = OpenAIChatInboundFields()
    /// The body, when it is not an object (decoding refuses it, naming its type).
    var notAnObject: JSONValue?
    /// Per element of `tools`, the schema captured from `function.parameters`, when it was an object.
    var schemas: [ToolSchema?] = []
    /// The checked tools, when the cache had the `tools` array's bytes; `fields` then has no `tools`.
    var cachedTools: [ToolDefinition]?
    /// The `tools` array's bytes, when the cache was asked and did not have them: kept once the request decodes.
    var uncachedToolBytes: [UInt8]?
    /// The decoded messages, when `InboundMessages.read` could read the `messages` member straight from the bytes;
    /// `fields` then has no `messages`.
    var messages: [Message]?

    /// Parses `body`. With `toolCache`, the `tools` array is first looked up there by its bytes in `scope`.
    static func parse(_ body: [UInt8], toolCache: ToolListCache? = nil, scope: String = "") throws(JSONSyntaxError) -> OpenAIChatInboundBody {
        try body.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> OpenAIChatInboundBody in
            try JSONCursor.read(buffer, duplicateKeys: .refused) { (c) throws(JSONSyntaxError) -> OpenAIChatInboundBody in
                var parsed = OpenAIChatInboundBody()
                let isObject = try c.readObject { (c, key) throws(JSONSyntaxError) in
                    // Each key comes once: the cursor refuses a second one before its value.
                    guard let member = OpenAIChatInboundFields.Member.named(key) else { return }   // skipped and checked
                    switch member {
                    case .messages:
                        if let messages = InboundMessages.read(&c) {
                            parsed.messages = messages
                            return
                        }
                    case .tools:
                        if try readTools(&c, into: &parsed, toolCache: toolCache, scope: scope) { return }
                    default:
                        break
                    }
                    parsed.fields[member] = try c.readValue()
                }
                if !isObject { parsed.notAnObject = try c.readValue() }
                return parsed
            }
        }
    }

    /// Reads the `tools` member at the cursor into `parsed` and returns `true`; returns `false`, consuming nothing, when
    /// it is not an array. With `toolCache`, a list this caller sent before is taken from there.
    private static func readTools(_ c: inout JSONCursor, into parsed: inout OpenAIChatInboundBody, toolCache: ToolListCache?,
                                  scope: String) throws(JSONSyntaxError) -> Bool {
        var found: [ToolSchema?] = []
        let tools: JSONValue?
        if let toolCache {
            switch try toolCache.read(&c, scope: scope, { (c) throws(JSONSyntaxError) in try readTools(&c, schemas: &found) }) {
            case .cached(let cached):
                parsed.cachedTools = cached
                return true
            case .read(let read, let bytes):
                tools = read ?? .array([])   // an array's bytes: never nil, and the cursor is past them either way
                parsed.uncachedToolBytes = bytes
            case .notAnArray:
                tools = nil
            }
        } else {
            tools = try readTools(&c, schemas: &found)
        }
        guard let tools else { return false }
        parsed.schemas = found
        parsed.fields[.tools] = tools
        return true
    }

    /// The `tools` array with each element's `function` member's `parameters` member captured when it is an object;
    /// `nil`, consuming nothing, when `tools` is not an array.
    private static func readTools(_ c: inout JSONCursor, schemas: inout [ToolSchema?]) throws(JSONSyntaxError) -> JSONValue? {
        var elements: [JSONValue] = []
        elements.reserveCapacity(8)
        schemas.reserveCapacity(8)
        let isArray = try c.readArray { (c) throws(JSONSyntaxError) in
            var schema: ToolSchema?
            var tool: [JSONObject.Member] = []
            tool.reserveCapacity(2)   // type, function
            let isObject = try c.readObject { (c, key) throws(JSONSyntaxError) in
                if key == "function" {
                    var function: [JSONObject.Member] = []
                    function.reserveCapacity(4)   // name, description, parameters, strict
                    let isFunctionObject = try c.readObject { (c, key) throws(JSONSyntaxError) in
                        if key == "parameters" {
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
