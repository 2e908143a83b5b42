import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateSkills
import SkillGateState
@testable import SkillGateServer

/// `/mcp`'s `tools/list` says what each tool does to the world — MCP's `ToolAnnotations` — so a client can tell the
/// tools it may run unasked from those it should ask a person about (decision 0121). Before, only a skill needing
/// confirmation had an `annotations` (`destructiveHint`), and a client assumed the worst of every other tool.
@Suite struct MCPToolAnnotationsTests {
    static let config = #"""
    {"server_skills":{"builtin":["current_time","calculator","notes","http_get"],
                      "http_get":{"allowed_hosts":["example.com"]},
                      "webhooks":{"lookup":{"description":"Looks a customer up","url":"https://crm.example.com/lookup","method":"GET","read_only":true},
                                  "create_ticket":{"description":"Creates a ticket","url":"https://crm.example.com/ticket"},
                                  "refund":{"description":"Refunds an order","url":"https://crm.example.com/refund","requires_confirmation":true}}}}
    """#

    /// The tools of the built-ins and three webhooks, as `tools/list` gives them to a request of `version`.
    static func tools(version: String) throws -> [String: JSONValue] {
        let c = try ServerSkillsConfigTests.load(config).serverSkills
        let dir = NSTemporaryDirectory() + "skillgate-annotations-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let registry = try ServerSkillsFactory.makeRegistry(config: c, keys: try KeyStore(path: dir + "/keys/keys.json"),
                                                            stateStore: try SQLiteStateStore(stateDirectory: dir), http: HTTPClient())
        let result = try MCPProtocol.toolsListResult(registry.all, params: nil, version: version)
        var byName: [String: JSONValue] = [:]
        for tool in result["tools"]?.arrayValue ?? [] { byName[tool["name"]?.stringValue ?? ""] = tool }
        return byName
    }

    @Test func theBuiltinsAndWebhooksSayWhatTheyDo() throws {
        let tools = try Self.tools(version: "2025-06-18")
        func hints(_ name: String) -> JSONValue? { tools[name]?["annotations"] }
        #expect(hints("current_time") == ["title": "Current time", "readOnlyHint": true, "openWorldHint": false])
        #expect(hints("calculator") == ["title": "Calculator", "readOnlyHint": true, "openWorldHint": false])
        #expect(hints("search_notes") == ["title": "Search notes", "readOnlyHint": true, "openWorldHint": false])
        #expect(hints("list_notes") == ["title": "List notes", "readOnlyHint": true, "openWorldHint": false])
        #expect(hints("save_note") == ["title": "Save a note", "readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false])
        #expect(hints("delete_note") == ["title": "Delete a note", "readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": false])
        #expect(hints("http_get") == ["title": "Fetch a web page", "readOnlyHint": true, "openWorldHint": true])
        // A webhook is open world; read-only only when its config says so, else destructive, said outright.
        #expect(hints("lookup") == ["readOnlyHint": true, "openWorldHint": true])
        #expect(hints("create_ticket") == ["readOnlyHint": false, "destructiveHint": true, "openWorldHint": true])
        #expect(hints("refund") == ["readOnlyHint": false, "destructiveHint": true, "openWorldHint": true])
        #expect(tools.count == 10)
    }

    /// The tool's top-level `title` is defined from 2025-06-18 on: a request of 2025-03-26 (or one without
    /// `MCP-Protocol-Version`, which the spec says to take as 2025-03-26) gets the annotations' title only.
    @Test func theTopLevelTitleGoesOnlyToRevisionsThatDefineIt() throws {
        let newer = try Self.tools(version: "2025-11-25")
        #expect(newer["delete_note"]?["title"] == "Delete a note")
        #expect(newer["delete_note"]?.objectValue?.keys == ["name", "title", "description", "inputSchema", "annotations"])
        let older = try Self.tools(version: "2025-03-26")
        #expect(older["delete_note"]?["title"] == nil)
        #expect(older["delete_note"]?["annotations"]?["title"] == "Delete a note")
        // A webhook has no title to give.
        #expect(newer["lookup"]?["title"] == nil)
    }

    /// A skill a person must confirm is shown as destructive and not read-only, whatever it says of itself: a
    /// webhook with both `read_only` and `requires_confirmation`, or an MCP server's read-only tool behind a server
    /// configured with `requires_confirmation`.
    @Test func confirmationOutweighsTheSkillsOwnHints() throws {
        let config = WebhookSkillConfig(name: "careful_lookup", description: "d", url: "https://crm.example.com/x", requiresConfirmation: true, readOnly: true)
        let skill = WebhookSkill(config: config, client: GuardedHTTP(http: HTTPClient()), secrets: { _ in nil })
        #expect(skill.annotations.readOnly == true)
        let shown = MCPProtocol.toolAnnotations(skill)
        #expect(shown == SkillAnnotations(readOnly: false, destructive: true, openWorld: true))
    }

    @Test func aWebhooksReadOnlyMustBeABoolean() throws {
        #expect(throws: JSONShapeError.self) {
            try ServerSkillsConfigTests.load(#"{"server_skills":{"webhooks":{"w":{"description":"d","url":"https://a.example.com/","read_only":"yes"}}}}"#)
        }
        do {
            _ = try ServerSkillsConfigTests.load(#"{"server_skills":{"webhooks":{"w":{"description":"d","url":"https://a.example.com/","read_only":"yes"}}}}"#)
        } catch {
            #expect("\(error)".contains("read_only") && "\(error)".contains("true or false"), "\(error)")
        }
        let c = try ServerSkillsConfigTests.load(#"{"server_skills":{"webhooks":{"w":{"description":"d","url":"https://a.example.com/","method":"GET"}}}}"#)
        #expect(c.serverSkills.webhooks.first?.readOnly == false)
    }
}

/// An MCP server's tools, re-exposed by `/mcp`, carry the server's own annotations and title; members MCP does not
/// define, or of the wrong type, are dropped; a server configured with `requires_confirmation` is shown destructive.
@Suite struct MCPUpstreamAnnotationsTests {
    /// A stdio MCP server in `sh` listing `lookup` (read-only, titled, with a stray member and a mistyped hint) and
    /// `plain` (no annotations).
    static func server(requiresConfirmation: Bool = false) -> JSONValue {
        let tools = #"[{"name":"lookup","title":"Look up","description":"Reads a record","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false,"idempotentHint":"yes","vendorHint":1}},{"name":"plain","description":"Does a thing","inputSchema":{"type":"object"}}]"#
        return ShellMCPServer.config(name: "records", tools: tools, extra: ["requires_confirmation": .bool(requiresConfirmation)])
    }

    static func listed(_ h: MCPGatewayHarness, version: String) async throws -> [String: JSONValue] {
        let body: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": "tools/list"]
        let r = try await h.post("/mcp", body.serializedBytes(), headers: ["x-skillgate-scenario": "all", "mcp-protocol-version": version])
        var byName: [String: JSONValue] = [:]
        for tool in try JSONValue.parse(r.body)["result"]?["tools"]?.arrayValue ?? [] { byName[tool["name"]?.stringValue ?? ""] = tool }
        return byName
    }

    @Test func theServersAnnotationsArePassedOn() async throws {
        let h = try await MCPGatewayHarness(mcpServers: Self.server())
        let tools = try await Self.listed(h, version: "2025-06-18")
        #expect(tools["records__lookup"]?["annotations"] == ["title": "Look up", "readOnlyHint": true, "openWorldHint": false], "\(tools.keys.sorted())")
        #expect(tools["records__lookup"]?["title"] == "Look up")
        #expect(tools["records__plain"]?["annotations"] == nil && tools["records__plain"]?["title"] == nil)
        // The gateway's test skill that needs confirmation.
        #expect(tools["ticket"]?["annotations"] == ["readOnlyHint": false, "destructiveHint": true])
        let older = try await Self.listed(h, version: "2025-03-26")
        #expect(older["records__lookup"]?["title"] == nil && older["records__lookup"]?["annotations"]?["title"] == "Look up")
        await h.stop()
    }

    @Test func aServerThatNeedsConfirmationIsShownDestructive() async throws {
        let h = try await MCPGatewayHarness(mcpServers: Self.server(requiresConfirmation: true))
        let tools = try await Self.listed(h, version: "2025-06-18")
        #expect(tools["records__lookup"]?["annotations"] == ["title": "Look up", "readOnlyHint": false, "destructiveHint": true, "openWorldHint": false])
        #expect(tools["records__plain"]?["annotations"] == ["readOnlyHint": false, "destructiveHint": true])
        await h.stop()
    }
}
