import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateSkills

/// Builds the live skill set of `mcp_servers`: one link per server, over streamable HTTP (through
/// the gateway's `HTTPClient`) or stdio (a child process). Header and environment values may name
/// key-store secrets (`${secret:NAME}`), read when a connection is made.
enum MCPSkillsFactory {
    /// The source of the servers' skills, or nil when none is configured. `reserved` are the names of
    /// the configured server-side skills (an MCP tool never shadows one).
    static func makeSource(configs: [MCPServerConfig], keys: KeyStore, http: HTTPClient, reserved: Set<String>,
                           log: @escaping MCPServerLink.Logger) -> MCPSkillSource? {
        guard !configs.isEmpty else { return nil }
        let secrets: @Sendable (String) -> String? = { name in
            _ = try? keys.reloadIfChanged()
            return keys.secret(named: name)
        }
        return MCPSkillSource(reserved: reserved, log: log) { changed in
            configs.map { config in
                MCPServerLink(config: config, log: log, changed: changed) { inbound throws(MCPError) in
                    try transport(for: config, http: http, secrets: secrets, inbound: inbound)
                }
            }
        }
    }

    /// A new transport to `config`'s server (a stdio server's process is started here).
    static func transport(for config: MCPServerConfig, http: HTTPClient, secrets: @escaping @Sendable (String) -> String?,
                          inbound: @escaping MCPInbound) throws(MCPError) -> any MCPTransport {
        switch config.transport {
        case .http(let url, let headers):
            return MCPHTTPTransport(http: http, url: url, headers: headers.sorted { $0.key < $1.key }, secrets: secrets, inbound: inbound)
        case .stdio(let command, let arguments, let environment):
            var env: [(String, String)] = []
            var used: [String] = []
            for (name, template) in environment.sorted(by: { $0.key < $1.key }) {
                do {
                    let expanded = try SecretTemplate.expand(template, secrets: secrets)
                    env.append((name, expanded.text))
                    used += expanded.used
                } catch {
                    throw MCPError(.unavailable, "env \(name): \(error.message)")
                }
            }
            return try MCPStdioTransport(command: command, arguments: arguments, environment: env, secretsSent: used, inbound: inbound)
        }
    }
}
