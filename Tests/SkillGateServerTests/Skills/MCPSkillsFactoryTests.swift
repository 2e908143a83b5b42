import SkillGateHTTP
import SkillGateSkills
import Testing
@testable import SkillGateServer

/// The transports the factory makes know which key-store secrets they give their server, so that what the server
/// says can have them taken out (`MCPServerLink.call`).
@Suite struct MCPSkillsFactoryTests {
    static let secrets: @Sendable (String) -> String? = { ["MCP_TOKEN": "tok-0123456789", "OTHER": "other-0123456789"][$0] }

    @Test func aStdioServersEnvironmentSecretsAreKnown() async throws {
        let config = MCPServerConfig(name: "s", transport: .stdio(command: "/bin/sleep", arguments: ["30"],
                                                                  environment: ["TOKEN": "${secret:MCP_TOKEN}", "MODE": "plain"]))
        let http = HTTPClient()
        defer { http.shutdown() }
        let transport = try MCPSkillsFactory.transport(for: config, http: http, secrets: Self.secrets, inbound: { _ in })
        #expect(transport.secretsSent == ["tok-0123456789"])
        await transport.close()
    }

    @Test func anHTTPServersHeaderSecretsAreKnown() {
        let config = MCPServerConfig(name: "h", transport: .http(url: "http://127.0.0.1:9/mcp",
                                                                 headers: ["Authorization": "Bearer ${secret:MCP_TOKEN}", "X-Plain": "v"]))
        let http = HTTPClient()
        defer { http.shutdown() }
        let transport = try? MCPSkillsFactory.transport(for: config, http: http, secrets: Self.secrets, inbound: { _ in })
        #expect(transport?.secretsSent == ["tok-0123456789"])
    }
}
