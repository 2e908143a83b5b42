import Foundation
import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

@Suite struct MCPServersConfigTests {
    static func load(_ json: String) throws -> GatewayConfig {
        try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: "/etc/skillgate")
    }

    @Test func parsesHTTPAndStdioServersAndPackEntries() throws {
        let c = try Self.load(#"""
        {"mcp_servers":{"docs":{"url":"https://mcp.example.com/mcp","headers":{"Authorization":"Bearer ${secret:DOCS}"},"call_timeout_seconds":5},
                        "files":{"command":"python3","args":["server.py"],"env":{"ROOT":"/srv"},"refresh_seconds":60,"max_tools":10,"requires_confirmation":true}},
         "skill_packs":{"p":{"skills":["docs.search","files.*","calculator"],"pinned":["docs.search"]}},
         "scenarios":{"s":{"skill_packs":["p"]}},"default_scenario":"s"}
        """#)
        #expect(c.mcpServers.map(\.name) == ["docs", "files"])
        #expect(c.mcpServers[0].transport == .http(url: "https://mcp.example.com/mcp", headers: ["Authorization": "Bearer ${secret:DOCS}"]))
        #expect(c.mcpServers[0].callTimeout == .seconds(5) && c.mcpServers[0].maxTools == 128 && !c.mcpServers[0].requiresConfirmation)
        #expect(c.mcpServers[1].transport == .stdio(command: "python3", arguments: ["server.py"], environment: ["ROOT": "/srv"]))
        #expect(c.mcpServers[1].refreshInterval == .seconds(60) && c.mcpServers[1].maxTools == 10 && c.mcpServers[1].requiresConfirmation)
        let pack = try #require(c.skillPacks["p"])
        #expect(pack.skills == ["docs__search", "calculator"] && pack.prefixes == ["files__"] && pack.pinned == ["docs__search"])
        let allow = SkillAllowlist(packs: [pack])
        #expect(allow.allows("files__read") && allow.allows("docs__search") && !allow.allows("docs__fetch") && !allow.allows("filesystem"))
        #expect(allow.described == ["calculator", "docs__search", "files.*"])
    }

    @Test(arguments: [
        (#"{"mcp_servers":{"a":{}}}"#, "$.mcp_servers.a", "needs \"url\""),
        (#"{"mcp_servers":{"a":{"url":"https://x/mcp","command":"y"}}}"#, "$.mcp_servers.a", "not both"),
        (#"{"mcp_servers":{"a":{"url":"ftp://x/mcp"}}}"#, "$.mcp_servers.a.url", "http:// or https://"),
        (#"{"mcp_servers":{"a":{"url":"https://x/mcp","env":{}}}}"#, "$.mcp_servers.a.env", "stdio servers"),
        (#"{"mcp_servers":{"a":{"command":"y","headers":{}}}}"#, "$.mcp_servers.a.headers", "HTTP servers"),
        (#"{"mcp_servers":{"a":{"command":""}}}"#, "$.mcp_servers.a.command", "is empty"),
        (#"{"mcp_servers":{"a":{"command":"y","retries":3}}}"#, "$.mcp_servers.a.retries", "unknown key"),
        (#"{"mcp_servers":{"a":{"command":"y","args":"x"}}}"#, "$.mcp_servers.a.args", "array"),
        (#"{"mcp_servers":{"a":{"command":"y","max_tools":5000}}}"#, "$.mcp_servers.a.max_tools", "between 1 and 1000"),
        (#"{"mcp_servers":{"a":{"command":"y","call_timeout_seconds":0}}}"#, "$.mcp_servers.a.call_timeout_seconds", "positive"),
        (#"{"mcp_servers":{"a__b":{"command":"y"}}}"#, "$.mcp_servers.a__b", "not a valid MCP server name"),
        (#"{"mcp_servers":{"a.b":{"command":"y"}}}"#, "$.mcp_servers.a.b", "not a valid MCP server name"),
        (#"{"mcp_servers":[]}"#, "$.mcp_servers", "object"),
        (#"{"skill_packs":{"p":["nope.*"]}}"#, "$.skill_packs.p", "no MCP server \"nope\""),
        (#"{"skill_packs":{"p":["a b"]}}"#, "$.skill_packs.p[0]", "SERVER.TOOL"),
    ])
    func badMCPConfigNamesFileAndPath(_ json: String, _ path: String, _ fragment: String) {
        do {
            _ = try Self.load(json)
            Issue.record("expected an error for \(json)")
        } catch let error as JSONShapeError {
            #expect(error.file == "test.json")
            #expect(error.path == path, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite struct MCPReadmeConfigTests {
    /// README.md's `mcp_servers` example (section "MCP servers as skill sources") is a valid config.
    @Test func theReadmeExampleLoads() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOfFile: repository.appendingPathComponent("README.md").path, encoding: .utf8)
        let section = try #require(readme.range(of: "### MCP servers as skill sources"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```json\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        let fragment = rest[open.upperBound..<close.lowerBound]
        let config = try GatewayConfig(json: try JSONValue.parse("{" + fragment + ", \"default_scenario\": \"research\", \"server_skills\": {\"builtin\": [\"calculator\"]}}"),
                                       file: "README.md", baseDirectory: "/etc/skillgate")
        #expect(config.mcpServers.map(\.name) == ["docs", "weather"])
        #expect(config.skillPacks["research"]?.prefixes == ["weather__"])
    }
}
