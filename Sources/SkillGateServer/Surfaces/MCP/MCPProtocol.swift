import SkillGateCore
import SkillGateSkills

/// SkillGate as an MCP server: the shapes of `initialize`, `tools/list` and `tools/call` (MCP
/// 2025-06-18 and later), independent of HTTP. The endpoint (`GatewayHandler+MCP.swift`) authenticates,
/// picks the scenario, applies limits and runs the skills.
enum MCPProtocol {
    /// The revisions `/mcp` speaks, newest first; `initialize` answers with the client's when it is one of them.
    static let versions = MCPClientSession.protocolVersions

    /// The most characters of a caller's own text (a method, a tool's name, a cursor) an error message quotes.
    static let maxQuotedCharacters = 100

    /// `text` quoted for an error message: whole when short, else its start and its length. An error message is also
    /// the log line's `error` and the console's traffic row: quoting a 4 MB method name whole made each request a
    /// 4 MB log line and 4 MB held in the traffic ring (200 of them: 800 MB, decision 0113).
    static func quoted(_ text: String) -> String {
        text.quotedExcerpt(maxQuotedCharacters)
    }

    /// The `initialize` result.
    static func initializeResult(_ params: JSONValue?) -> JSONValue {
        let asked = params?["protocolVersion"]?.stringValue
        let version = asked.flatMap { versions.contains($0) ? $0 : nil } ?? versions[0]
        return ["protocolVersion": .string(version),
                "capabilities": ["tools": ["listChanged": false]],
                "serverInfo": ["name": "skillgate", "version": "1.0"],
                "instructions": "SkillGate's server-side skills for this token's scenario. tools/list shows exactly the skills the scenario allows."]
    }

    /// The revision a request without `MCP-Protocol-Version` is taken to speak: the spec has a server assume
    /// 2025-03-26 then (clients of 2025-06-18 and later send the header after `initialize`).
    static let versionWithoutHeader = "2025-03-26"

    /// The `tools/list` result: every tool at once (no cursor is ever issued, so any cursor is unknown). Each tool's
    /// `annotations` say what its skill says (`toolAnnotations`); its top-level `title` is sent only to a request of
    /// 2025-06-18 or later, the first revision that defines it (the annotations' `title` is in every revision).
    static func toolsListResult(_ skills: [any Skill], params: JSONValue?, version: String = versionWithoutHeader) throws(JSONRPCError) -> JSONValue {
        if let cursor = params?["cursor"], !cursor.isNull {
            throw JSONRPCError(code: JSONRPCError.invalidParams, message: "unknown cursor \(quoted(cursor.stringValue ?? cursor.serialized())); SkillGate lists every tool on the first page, so call tools/list without a cursor")
        }
        let toolTitles = version >= "2025-06-18"
        let tools = skills.map { skill -> JSONValue in
            var o: JSONObject = ["name": .string(skill.name)]
            let annotations = toolAnnotations(skill)
            if toolTitles, let title = annotations.title { o.append("title", .string(title)) }
            o.append("description", .string(skill.description))
            o.append("inputSchema", skill.parameters)
            o.append("annotations", ifPresent: annotations.mcpValue)
            return .object(o)
        }
        return ["tools": .array(tools)]
    }

    /// What `tools/list` says of `skill`: its own annotations, except that a skill a person must confirm is shown as
    /// destructive and not read-only, whatever it or its MCP server says — the operator's word is the stronger one
    /// (decision 0121).
    static func toolAnnotations(_ skill: any Skill) -> SkillAnnotations {
        var annotations = skill.annotations
        if skill.requiresConfirmation {
            annotations.readOnly = false
            annotations.destructive = true
        }
        return annotations
    }

    /// The `tools/call` params: the tool's name and its arguments (an object; absent means `{}`).
    static func callParams(_ params: JSONValue?) throws(JSONRPCError) -> (name: String, arguments: JSONValue) {
        guard let params, params.objectValue != nil else {
            throw JSONRPCError(code: JSONRPCError.invalidParams, message: "tools/call needs params {\"name\": ..., \"arguments\": {...}}")
        }
        guard let name = params["name"]?.stringValue, !name.isEmpty else {
            throw JSONRPCError(code: JSONRPCError.invalidParams, message: "tools/call needs \"name\": the tool's name from tools/list")
        }
        let arguments = params["arguments"] ?? .object([:])
        guard arguments.objectValue != nil else {
            throw JSONRPCError(code: JSONRPCError.invalidParams, message: "tools/call \"arguments\" must be an object, got \(arguments.typeDescription)")
        }
        return (name, arguments)
    }

    /// A skill's result as a `CallToolResult` (a failed skill is `isError: true`, not a JSON-RPC error).
    static func callResult(_ result: SkillResult) -> JSONValue {
        var o: JSONObject = ["content": [["type": "text", "text": .string(result.text)]], "isError": .bool(result.isError)]
        if let payload = result.payload, payload.objectValue != nil { o.append("structuredContent", payload) }
        return .object(o)
    }

    /// The HTTP status of a JSON-RPC error answer: 400 for a body that is not a request, else 200.
    static func httpStatus(_ error: JSONRPCError) -> Int {
        error.code == JSONRPCError.parseError || error.code == JSONRPCError.invalidRequest ? 400 : 200
    }
}

/// The error shape of `/mcp` for failures before a JSON-RPC answer (401, 403, 429): a JSON-RPC error
/// with a null id, whose message says what to do.
struct MCPErrorShape: ErrorShape {
    var name: String { "mcp" }
    /// The id of the request the error answers, once its body was read (nil before: a JSON-RPC error with a null id).
    var id: JSONRPCId?

    func errorBody(_ error: GatewayError) -> [UInt8] {
        let code: Int = switch error.status {
        // A method `/mcp` does not have (GET's event stream, DELETE of a session) or a body too large is the caller's
        // request, not the server's fault: -32600, not -32603 (decision 0096).
        case 400, 405, 413, 415: JSONRPCError.invalidRequest
        case 401: -32001
        case 403: -32003
        case 429: -32029
        default: JSONRPCError.internalError
        }
        return JSONRPCMessage.error(id: id, error: JSONRPCError(code: code, message: error.clientMessage)).bytes
    }
}
