import Foundation
import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

/// An MCP server behind the gateway whose tool answers a large `structuredContent`: what reaches the `/mcp` client and
/// the `/v1/agent` client is bounded by `agent.max_result_bytes` (16 KB here) like the text (decision 0118; before, the
/// structured content passed whole, up to the transport's 4 MB).
@Suite struct MCPStructuredContentTests {
    /// A stdio MCP server in `sh`: one tool, `rows`, whose result carries `bytes` of structured content.
    static func server(structuredBytes bytes: Int) -> JSONValue {
        ShellMCPServer.config(name: "bulky", tools: #"[{"name":"rows","description":"Returns many rows","inputSchema":{"type":"object"}}]"#,
                              callResult: #"printf '{"content":[{"type":"text","text":"all the rows"}],"structuredContent":{"rows":"'; head -c \#(bytes) /dev/zero | tr '\0' x; printf '"}}'"#)
    }

    @Test func aLargeStructuredContentIsDroppedForTheMCPAndTheAgentClient() async throws {
        let h = try await MCPGatewayHarness(mcpServers: Self.server(structuredBytes: 1_000_000), tool: "bulky__rows")
        let call = try await h.rpc("tools/call", ["name": "bulky__rows", "arguments": [:]], scenario: "all")
        let result = try #require(call.answer["result"], "\(call.answer.serialized().prefix(500))")
        #expect(result["structuredContent"]?.serializedBytes().count == nil)
        let text = result["content"]?.arrayValue?.first?["text"]?.stringValue ?? ""
        #expect(text.hasPrefix("all the rows\n[structured content dropped: its JSON was 1000011 bytes, over the 16384-byte agent.max_result_bytes"), "\(text.prefix(300))")
        #expect(result["isError"] == false)

        let run = try await h.post("/v1/agent", MCPServersGatewayTests.agentBody("give me the rows"))
        #expect(run.status == 200)
        #expect(run.body.utf8.count < 64 * 1024, "the run's stream was \(run.body.utf8.count) bytes")
        let finished = try #require(AgentGatewayHarness.events(run.body).first { $0.name == "skill.finished" }?.data, "\(run.body.prefix(500))")
        #expect(finished["skill"] == "bulky__rows" && finished["ok"] == true)
        #expect(finished["payload"]?.serializedBytes().count == nil)
        await h.stop()
    }

    @Test func aSmallStructuredContentReachesTheClientWhole() async throws {
        let h = try await MCPGatewayHarness(mcpServers: Self.server(structuredBytes: 1000), tool: "bulky__rows")
        let call = try await h.rpc("tools/call", ["name": "bulky__rows", "arguments": [:]], scenario: "all")
        #expect(call.answer["result"]?["structuredContent"]?["rows"]?.stringValue?.count == 1000, "\(call.answer)")
        #expect(call.answer["result"]?["content"]?.arrayValue?.first?["text"] == "all the rows")
        await h.stop()
    }
}
