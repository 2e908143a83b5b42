import Foundation
import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

/// `POST /mcp`: SkillGate as an MCP server of the token's scenario's skills.
@Suite struct MCPEndpointTests {
    @Test func initializeAnswersWithTheClientsVersionAndToolsCapability() async throws {
        let h = try await MCPGatewayHarness()
        let (status, answer) = try await h.rpc("initialize", ["protocolVersion": "2025-06-18", "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]])
        #expect(status == 200)
        #expect(answer["id"] == 1 && answer["result"]?["protocolVersion"] == "2025-06-18")
        #expect(answer["result"]?["capabilities"]?["tools"] != nil)
        #expect(answer["result"]?["serverInfo"]?["name"] == "skillgate")
        // An unknown revision gets the newest one this server speaks.
        let other = try await h.rpc("initialize", ["protocolVersion": "2099-01-01"])
        #expect(other.answer["result"]?["protocolVersion"]?.stringValue == MCPProtocol.versions[0])
        let note = try await h.post("/mcp", Array(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8))
        #expect(note.status == 202 && note.body.isEmpty)
        await h.stop()
    }

    @Test(arguments: [(nil as String?, ["multiply"]), ("math", ["multiply"]), ("all", ["multiply", "clock", "ticket"])])
    func toolsListShowsExactlyTheScenariosSkills(_ scenario: String?, _ expected: [String]) async throws {
        let h = try await MCPGatewayHarness()
        let (status, answer) = try await h.rpc("tools/list", scenario: scenario)
        #expect(status == 200)
        let tools = answer["result"]?["tools"]?.arrayValue ?? []
        #expect(tools.compactMap { $0["name"]?.stringValue } == expected)
        #expect(tools.first?["inputSchema"]?["required"] == ["a", "b"])
        #expect(answer["result"]?["nextCursor"] == nil)
        await h.stop()
    }

    @Test func toolsCallRunsTheSkillAndLogsIt() async throws {
        let h = try await MCPGatewayHarness()
        let arguments: JSONValue = ["a": 6, "b": "7"]
        let (status, answer) = try await h.rpc("tools/call", ["name": "multiply", "arguments": arguments], id: 9)
        #expect(status == 200 && answer["id"] == 9)
        let result = try #require(answer["result"])
        #expect(result["isError"] == false, "\(result)")
        // "7" was coerced to 7 by the validator, as the agent loop does for a model's arguments.
        #expect(result["content"]?.arrayValue?.first?["text"] == "6 * 7 = 42")
        #expect(result["structuredContent"]?["product"] == 42)
        let line = try #require(await h.logLines().last { $0["surface"] == "mcp" && $0["skills_run"] != nil })
        #expect(line["skills_run"] == ["multiply"] && line["status"] == 200 && line["scenario"] == "math")
        await h.stop()
    }

    @Test func aSkillFailureIsAnIsErrorResultNotAJSONRPCError() async throws {
        let h = try await MCPGatewayHarness()
        // Arguments the schema refuses: the validator's message, as the agent loop gives the model.
        let bad = try await h.rpc("tools/call", ["name": "multiply", "arguments": ["a": 1]])
        #expect(bad.answer["result"]?["isError"] == true)
        #expect(bad.answer["result"]?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("b: missing required property") == true, "\(bad.answer)")
        // A skill that needs a person's confirmation is not run from /mcp.
        let confirm = try await h.rpc("tools/call", ["name": "ticket", "arguments": [:]], scenario: "all")
        #expect(confirm.answer["result"]?["isError"] == true)
        #expect(confirm.answer["result"]?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("confirmation") == true)
        await h.stop()
    }

    @Test(arguments: [
        ("{not json", 400, JSONRPCError.parseError, JSONValue.null),
        (#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#, 400, JSONRPCError.invalidRequest, .null),
        (#"{"jsonrpc":"1.0","id":5,"method":"tools/list"}"#, 400, JSONRPCError.invalidRequest, 5),
        (#"{"jsonrpc":"2.0","id":3,"method":"resources/list"}"#, 200, JSONRPCError.methodNotFound, 3),
        (#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"clock"}}"#, 200, JSONRPCError.invalidParams, 4),
        (#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"arguments":{}}}"#, 200, JSONRPCError.invalidParams, 6),
        (#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"multiply","arguments":[1]}}"#, 200, JSONRPCError.invalidParams, 7),
        (#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"cursor":"x"}}"#, 200, JSONRPCError.invalidParams, 8),
    ])
    func badRequestsGetJSONRPCErrorsWithTheirCodes(_ body: String, _ status: Int, _ code: Int, _ id: JSONValue) async throws {
        let h = try await MCPGatewayHarness()
        let r = try await h.post("/mcp", Array(body.utf8))
        #expect(r.status == status)
        let answer = try JSONValue.parse(r.body)
        #expect(answer["jsonrpc"] == "2.0" && answer["id"] == id)
        #expect(answer["error"]?["code"]?.intValue == code)
        #expect((answer["error"]?["message"]?.stringValue?.count ?? 0) > 20)
        await h.stop()
    }

    /// An ordinary token's method name, tool name or cursor of a megabyte: the error quotes its start, so the answer,
    /// the log line and the console's traffic ring stay small (each was the whole megabyte: 200 such requests held
    /// 800 MB in the ring; decision 0113).
    @Test func aHugeMethodToolNameOrCursorIsQuotedShort() async throws {
        let h = try await MCPGatewayHarness()
        let huge = String(repeating: "x", count: 1_000_000)
        let bodies: [JSONValue] = [
            ["jsonrpc": "2.0", "id": 1, "method": .string(huge)],
            ["jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": ["name": .string(huge), "arguments": [:]]],
            ["jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": ["cursor": .string(huge)]],
        ]
        for body in bodies {
            let r = try await h.post("/mcp", body.serializedBytes())
            #expect(r.status == 200)
            let message = try #require(try JSONValue.parse(r.body)["error"]?["message"]?.stringValue)
            #expect(message.utf8.count < 600, "\(message.prefix(300))")
            #expect(message.contains("1000000 bytes"), "\(message.prefix(300))")
        }
        let lines = await h.logLines().filter { $0["surface"] == "mcp" }
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { ($0["error"]?.stringValue?.utf8.count ?? 0) < 600 })
        let recent = h.gateway.services.traffic.recent(limit: 10)
        #expect(recent.count == 3)
        #expect(recent.allSatisfy { ($0.error?.utf8.count ?? 0) < 600 })
        await h.stop()
    }

    @Test func withoutAValidTokenIt401sInTheJSONRPCShape() async throws {
        let h = try await MCPGatewayHarness()
        for token in ["", "sg-not-a-token"] {
            let r = try await h.post("/mcp", Array(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.utf8), token: token)
            #expect(r.status == 401)
            let answer = try JSONValue.parse(r.body)
            #expect(answer["jsonrpc"] == "2.0" && answer["error"]?["code"] == -32001)
        }
        let get = try await h.post("/mcp", [], method: "GET")
        #expect(get.status == 405 && get.headers["allow"] == "POST")
        // The caller's request, not the server's fault: invalid request, not internal error (decision 0096).
        #expect(try JSONValue.parse(get.body)["error"]?["code"] == -32600)
        let delete = try await h.post("/mcp", [], method: "DELETE")
        #expect(delete.status == 405)
        #expect(try JSONValue.parse(delete.body)["error"]?["code"] == -32600)
        let version = try await h.post("/mcp", Array(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.utf8), headers: ["mcp-protocol-version": "1999-01-01"])
        #expect(version.status == 400 && version.body.contains("1999-01-01"))
        await h.stop()
    }

    @Test func anUnknownScenarioIsRefusedNamingIt() async throws {
        let h = try await MCPGatewayHarness()
        let r = try await h.rpc("tools/list", id: 12, scenario: "nope")
        #expect(r.status >= 400)
        #expect(r.answer["error"]?["message"]?.stringValue?.contains("nope") == true)
        // The body was read, so the error answers the request by its id.
        #expect(r.answer["id"] == 12)
        await h.stop()
    }
}

/// MCP servers behind the gateway: their tools as skills in the agent loop and through /mcp.
@Suite struct MCPServersGatewayTests {
    static func agentBody(_ text: String) -> [UInt8] {
        let message: JSONValue = ["role": "user", "content": .string(text)]
        let body: JSONValue = ["scenario": "all", "messages": [message]]
        return body.serializedBytes()
    }

    @Test(.enabled(if: MCPExamplePython.python != nil, "needs a Python with the mcp SDK (scripts/test.sh installs it into .venv)"))
    func anMCPServersToolRunsInTheAgentLoopAndThroughMCP() async throws {
        let servers: JSONValue = ["py": ["command": .string(MCPExamplePython.python!), "args": [.string(MCPExamplePython.script), "stdio"],
                                         "connect_timeout_seconds": 120]]
        let h = try await MCPGatewayHarness(mcpServers: servers, tool: "py__grow")
        let list = try await h.rpc("tools/list", scenario: "all")
        let names = list.answer["result"]?["tools"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names.contains("py__add") && names.contains("py__grow") && names.contains("multiply"))
        let addArguments: JSONValue = ["a": 20, "b": 22]
        let sum = try await h.rpc("tools/call", ["name": "py__add", "arguments": addArguments], scenario: "all")
        #expect(sum.answer["result"]?["content"]?.arrayValue?.first?["text"] == "42")
        let failed = try await h.rpc("tools/call", ["name": "py__fail", "arguments": [:]], scenario: "all")
        #expect(failed.answer["result"]?["isError"] == true)

        let run = try await h.post("/v1/agent", Self.agentBody("grow the tools"))
        #expect(run.status == 200, "\(run.body)")
        let events = AgentGatewayHarness.events(run.body)
        let finished = events.filter { $0.name == "skill.finished" }.map(\.data)
        #expect(finished.contains { $0["skill"] == "py__grow" && $0["ok"] == true })
        let text = events.filter { $0.name == "text.delta" }.compactMap { $0.data["text"]?.stringValue }.joined()
        #expect(text == "Result: grown")
        // The scenario that does not list the server does not see its tools.
        let math = try await h.rpc("tools/list")
        #expect(math.answer["result"]?["tools"]?.arrayValue?.count == 1)
        await h.stop()
    }

    @Test func aServerThatIsDownDoesNotFailTheScenario() async throws {
        let servers: JSONValue = ["broken": ["command": "/bin/sh", "args": ["-c", "echo 'no config' >&2; exit 1"], "connect_timeout_seconds": 2]]
        let h = try await MCPGatewayHarness(mcpServers: servers)
        let list = try await h.rpc("tools/list", scenario: "all")
        #expect(list.status == 200)
        #expect(list.answer["result"]?["tools"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["multiply", "clock", "ticket"])
        let run = try await h.post("/v1/agent", Self.agentBody("compute"))
        #expect(run.status == 200)
        #expect(run.body.contains("skill.finished"))
        let events = await h.logLines().filter { $0["event"] == "mcp server unavailable" }
        #expect(events.first?["server"] == "broken")
        #expect(events.first?["error"]?.stringValue?.contains("no config") == true)
        await h.stop()
    }
}

/// An MCP server configured with `requires_confirmation`: its tools are handed back to the client.
@Suite struct MCPConfirmationGatewayTests {
    @Test(.enabled(if: MCPExamplePython.python != nil, "needs a Python with the mcp SDK (scripts/test.sh installs it into .venv)"))
    func toolsOfAServerThatNeedsConfirmationAreHandedBack() async throws {
        let servers: JSONValue = ["py": ["command": .string(MCPExamplePython.python!), "args": [.string(MCPExamplePython.script), "stdio"], "connect_timeout_seconds": 120,
                                         "requires_confirmation": true]]
        let h = try await MCPGatewayHarness(mcpServers: servers, tool: "py__grow")
        let run = try await h.post("/v1/agent", MCPServersGatewayTests.agentBody("grow the tools"))
        #expect(run.status == 200, "\(run.body)")
        let events = AgentGatewayHarness.events(run.body)
        let call = try #require(events.first { $0.name == "tool.call" }?.data, "\(run.body)")
        #expect(call["name"] == "py__grow" && call["requires_confirmation"] == true)
        #expect(!events.contains { $0.name == "skill.started" })
        let direct = try await h.rpc("tools/call", ["name": "py__grow", "arguments": [:]], scenario: "all")
        #expect(direct.answer["result"]?["isError"] == true)
        #expect(direct.answer["result"]?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("confirmation") == true)
        await h.stop()
    }
}

/// The notes skills through `/mcp`: `delete_note` is listed with the others, and a token deletes only its own notes
/// (decision 0118).
@Suite struct MCPNotesTests {
    static func text(_ answer: JSONValue) -> String { answer["result"]?["content"]?.arrayValue?.first?["text"]?.stringValue ?? "" }

    @Test func deleteNoteIsListedAndDeletesOnlyTheCallersNotes() async throws {
        let h = try await MCPGatewayHarness(extraSkills: NotesSkills.all(store: InMemoryNotesStore()))
        let list = try await h.rpc("tools/list", scenario: "all")
        let names = list.answer["result"]?["tools"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names == ["multiply", "clock", "ticket"] + NotesSkills.names)
        let saved = try await h.rpc("tools/call", ["name": "save_note", "arguments": ["text": "the plan"]], scenario: "all")
        let id = try #require(saved.answer["result"]?["structuredContent"]?["id"]?.intValue, "\(saved.answer)")

        let others = try await h.rpc("tools/call", ["name": "delete_note", "arguments": ["id": .int(id)]], scenario: "all", token: h.otherToken)
        let unknown = try await h.rpc("tools/call", ["name": "delete_note", "arguments": ["id": 424242]], scenario: "all", token: h.otherToken)
        #expect(others.answer["result"]?["isError"] == true && unknown.answer["result"]?["isError"] == true)
        #expect(Self.text(others.answer).replacingOccurrences(of: "#\(id) ", with: "#N ") == Self.text(unknown.answer).replacingOccurrences(of: "#424242 ", with: "#N "))
        #expect(others.answer["result"]?["structuredContent"] == nil)

        let mine = try await h.rpc("tools/call", ["name": "delete_note", "arguments": ["id": .int(id)]], scenario: "all")
        #expect(mine.answer["result"]?["isError"] == false && Self.text(mine.answer) == "Deleted note #\(id).")
        let listed = try await h.rpc("tools/call", ["name": "list_notes", "arguments": [:]], scenario: "all")
        #expect(Self.text(listed.answer).contains("no saved notes"))
        await h.stop()
    }
}
