import SkillGateCore

/// One MCP server as configured (`mcp_servers.NAME`).
public struct MCPServerConfig: Sendable, Hashable {
    /// How the gateway reaches the server.
    public enum Transport: Sendable, Hashable {
        /// Streamable HTTP: one endpoint URL; header values may contain `${secret:NAME}`.
        case http(url: String, headers: [String: String])
        /// A child process speaking newline-delimited JSON-RPC on stdin/stdout; `env` values may contain `${secret:NAME}`.
        case stdio(command: String, arguments: [String], environment: [String: String])
    }

    /// The server's name in config: its tools become `NAME__TOOL` skills (packs write `NAME.TOOL` or `NAME.*`).
    public var name: String
    public var transport: Transport
    /// Longest one `tools/call` may take (the skill's timeout).
    public var callTimeout: Duration
    /// Longest `initialize` and `tools/list` may take.
    public var connectTimeout: Duration
    /// How often the tool list is fetched again (besides `notifications/tools/list_changed`).
    public var refreshInterval: Duration
    /// Most tools kept from the server; the rest are logged and ignored.
    public var maxTools: Int
    /// Most `tools/list` pages followed.
    public var maxPages: Int
    /// Whether every call of this server's tools is returned to the client for confirmation first.
    public var requiresConfirmation: Bool

    public init(name: String, transport: Transport, callTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10),
                refreshInterval: Duration = .seconds(300), maxTools: Int = 128, maxPages: Int = 10, requiresConfirmation: Bool = false) {
        self.name = name
        self.transport = transport
        self.callTimeout = callTimeout
        self.connectTimeout = connectTimeout
        self.refreshInterval = refreshInterval
        self.maxTools = maxTools
        self.maxPages = maxPages
        self.requiresConfirmation = requiresConfirmation
    }
}

/// How MCP tool names become skill names the model can call (`[a-zA-Z0-9_-]{1,64}`, which every
/// provider accepts): `SERVER__TOOL`, characters outside that set replaced by `_`.
public enum MCPSkillName {
    /// The separator between server and tool (a dot is not a valid tool name for OpenAI or Anthropic).
    public static let separator = "__"

    /// The skill name of `tool` on `server`.
    public static func make(server: String, tool: String) -> String {
        server + separator + String(tool.map { c in c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-") ? c : "_" })
    }

    /// A pack entry `SERVER.TOOL` as a skill name, `SERVER.*` as a prefix; nil for other entries.
    public static func packEntry(_ entry: String) -> (server: String, skill: String?, prefix: String?)? {
        guard let dot = entry.firstIndex(of: ".") else { return nil }
        let server = String(entry[..<dot]), tool = String(entry[entry.index(after: dot)...])
        guard !server.isEmpty, !tool.isEmpty else { return nil }
        if tool == "*" { return (server, nil, server + separator) }
        return (server, make(server: server, tool: tool), nil)
    }
}
