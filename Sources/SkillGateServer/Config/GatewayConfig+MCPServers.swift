import SkillGateCore
import SkillGateSkills

extension GatewayConfig {
    /// `mcp_servers`: MCP servers whose tools become server-side skills (`NAME__TOOL`; packs list
    /// `NAME.TOOL` or `NAME.*`).
    ///
    /// ```json
    /// "mcp_servers": {
    ///   "docs": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${secret:DOCS_MCP}"}},
    ///   "files": {"command": "python3", "args": ["files_server.py"], "env": {"ROOT": "/srv/files"},
    ///             "call_timeout_seconds": 20, "refresh_seconds": 300, "max_tools": 128, "requires_confirmation": true}
    /// }
    /// ```
    static func loadMCPServers(_ r: JSONReader) throws(JSONShapeError) -> [MCPServerConfig] {
        var out: [MCPServerConfig] = []
        for (name, s) in try r.optionalObjectMap("mcp_servers") ?? [] {
            try s.rejectUnknownKeys(["url", "headers", "command", "args", "env", "call_timeout_seconds", "connect_timeout_seconds",
                                     "refresh_seconds", "max_tools", "max_pages", "requires_confirmation", "$comment"])
            guard SkillPack.isValidSkillName(name), !name.contains(MCPSkillName.separator), !name.hasPrefix("_"), !name.hasSuffix("_") else {
                throw s.error(nil, "\"\(name)\" is not a valid MCP server name: use letters, digits, - and single _ (no \"__\", not at either end), since tools become \"\(name)__TOOL\"")
            }
            let transport: MCPServerConfig.Transport
            switch (try s.optionalString("url"), try s.optionalString("command")) {
            case (let url?, nil):
                for key in ["args", "env"] where s.object[key] != nil {
                    throw s.error(key, "is for stdio servers (\"command\"); an HTTP server (\"url\") takes \"headers\"")
                }
                guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.count > 8 else {
                    throw s.error("url", "\"\(url)\" is not an http:// or https:// URL; give the server's MCP endpoint (e.g. https://host/mcp)")
                }
                let headers = try s.optionalStringMap("headers") ?? []
                transport = .http(url: url, headers: Dictionary(headers, uniquingKeysWith: { _, last in last }))
            case (nil, let command?):
                if s.object["headers"] != nil { throw s.error("headers", "is for HTTP servers (\"url\"); a stdio server (\"command\") takes \"env\"") }
                guard !command.isEmpty else { throw s.error("command", "is empty; give the server's executable (in PATH or a path)") }
                let env = try s.optionalStringMap("env") ?? []
                transport = .stdio(command: command, arguments: try s.optionalStringArray("args") ?? [],
                                   environment: Dictionary(env, uniquingKeysWith: { _, last in last }))
            case (.some, .some):
                throw s.error(nil, "has both \"url\" and \"command\"; an MCP server is reached over HTTP (\"url\") or stdio (\"command\"), not both")
            case (nil, nil):
                throw s.error(nil, "needs \"url\" (streamable HTTP) or \"command\" (stdio)")
            }
            func seconds(_ key: String, _ fallback: Double) throws(JSONShapeError) -> Duration {
                let v = try s.optionalDouble(key) ?? fallback
                guard v > 0 else { throw s.error(key, "must be a positive number of seconds") }
                return .milliseconds(Int64(v * 1000))
            }
            func count(_ key: String, _ fallback: Int, max: Int) throws(JSONShapeError) -> Int {
                let v = try s.optionalInt(key) ?? fallback
                guard (1...max).contains(v) else { throw s.error(key, "must be between 1 and \(max)") }
                return v
            }
            out.append(MCPServerConfig(name: name, transport: transport, callTimeout: try seconds("call_timeout_seconds", 30),
                                       connectTimeout: try seconds("connect_timeout_seconds", 10), refreshInterval: try seconds("refresh_seconds", 300),
                                       maxTools: try count("max_tools", 128, max: 1000), maxPages: try count("max_pages", 10, max: 100),
                                       requiresConfirmation: try s.optionalBool("requires_confirmation") ?? false))
        }
        return out.sorted { $0.name < $1.name }
    }

    /// Every `SERVER.TOOL` / `SERVER.*` pack entry must name a configured MCP server.
    func validateMCPPackEntries(_ r: JSONReader) throws(JSONShapeError) {
        let servers = Set(mcpServers.map(\.name))
        for (name, pack) in skillPacks.sorted(by: { $0.key < $1.key }) {
            for server in pack.mcpServers where !servers.contains(server) {
                throw r.error("skill_packs.\(name)", "lists \"\(server).…\", but no MCP server \"\(server)\" is configured under \"mcp_servers\"; add it or fix the entry")
            }
        }
    }
}
