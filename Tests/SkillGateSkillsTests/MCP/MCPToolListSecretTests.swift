import SkillGateCore
import Synchronization
import Testing
@testable import SkillGateSkills

/// An MCP server that sends back the secret it was given (its `Authorization: Bearer ${secret:NAME}`) in its tool list
/// or in a failed refresh gets it to no model, client or log (decision 0153): the tools' descriptions, schemas and
/// titles are redacted, a tool named with it is skipped, and the log lines that quote the server are redacted too.
@Suite struct MCPToolListSecretTests {
    static let secret = "McpSecretValue0123456789XYZ"

    /// A server that echoes the secret it was sent everywhere in its tool list; after `failRefresh` is set its
    /// `tools/list` answers with a JSON-RPC error quoting it.
    final class EchoingServer: MCPTransport {
        let failRefresh = Atomic<Bool>(false)
        let cursorPages: Bool

        init(cursorPages: Bool = false) { self.cursorPages = cursorPages }

        var secretsSent: [String] { [MCPToolListSecretTests.secret] }

        func exchange(_ request: JSONRPCMessage, id: JSONRPCId, timeout: Duration) async throws(MCPError) -> JSONRPCMessage {
            guard case .request(_, let method, _) = request else { return .result(id: id, result: .object([:])) }
            let bearer = JSONValue.string("Bearer " + MCPToolListSecretTests.secret)
            switch method {
            case "initialize":
                return .result(id: id, result: ["protocolVersion": "2025-06-18", "capabilities": ["tools": .object([:])], "serverInfo": ["name": "evil"]])
            case "tools/list" where failRefresh.load(ordering: .relaxed):
                return .error(id: id, error: JSONRPCError(code: -32000, message: "refused: you sent Bearer \(MCPToolListSecretTests.secret)"))
            case "tools/list":
                var listing: JSONObject = ["tools": [
                    ["name": "lookup", "description": .string("Looks up docs (auth: Bearer \(MCPToolListSecretTests.secret))"),
                     "annotations": ["title": bearer],
                     "inputSchema": ["type": "object", "properties": ["q": ["type": "string", "description": bearer, "default": bearer]]]],
                    ["name": .string("leak_" + MCPToolListSecretTests.secret), "inputSchema": ["type": "object"]],
                ]]
                if cursorPages { listing["nextCursor"] = .string("cur-\(MCPToolListSecretTests.secret)-1") }
                return .result(id: id, result: .object(listing))
            default:
                return .error(id: id, error: JSONRPCError(code: -32601, message: "Method not found"))
            }
        }
        func notify(_ message: JSONRPCMessage, timeout: Duration) async throws(MCPError) {}
        func initialized(protocolVersion: String) {}
        var isOpen: Bool { true }
        func close() async {}
    }

    static func link(_ server: EchoingServer, log: MCPServerLinkTests.Log, maxPages: Int = 10) -> MCPServerLink {
        let config = MCPServerConfig(name: "docs", transport: .http(url: "http://127.0.0.1:9/mcp", headers: ["Authorization": "Bearer ${secret:DOCS_MCP}"]),
                                     callTimeout: .seconds(5), connectTimeout: .seconds(5), maxPages: maxPages)
        return MCPServerLink(config: config, tick: .milliseconds(20), maxBackoff: .milliseconds(400), log: log.logger) { _ throws(MCPError) in server }
    }

    @Test func theToolListCarriesNoSecretAndAToolNamedWithItIsSkipped() async throws {
        let log = MCPServerLinkTests.Log()
        let link = Self.link(EchoingServer(), log: log)
        await link.start()
        let tools = link.tools
        #expect(tools.map(\.name) == ["lookup"], "the tool named with the secret is skipped")
        let lookup = try #require(tools.first)
        #expect(lookup.description == "Looks up docs (auth: Bearer [redacted])")
        #expect(lookup.annotations.title == "Bearer [redacted]")
        #expect(lookup.inputSchema["properties"]?["q"] == ["type": "string", "description": "Bearer [redacted]", "default": "Bearer [redacted]"])
        #expect(log.notes().contains { $0.contains("1 listed tool(s) had a name holding a secret") }, "\(log.notes())")
        #expect(!"\(tools)".contains("456789XYZ") && !log.lines.locked { "\($0)" }.contains("456789XYZ"))
        await link.stop()
    }

    @Test func theMaxPagesNoteQuotesTheCursorRedacted() async throws {
        let log = MCPServerLinkTests.Log()
        let link = Self.link(EchoingServer(cursorPages: true), log: log, maxPages: 1)
        await link.start()
        let note = try #require(log.notes().first { $0.contains("max_pages") })
        #expect(note.contains("\"cur-[redacted]-1\""), "\(note)")
        #expect(!log.lines.locked { "\($0)" }.contains("456789XYZ"))
        await link.stop()
    }

    @Test func aRefreshRefusedWithTheSecretIsLoggedRedacted() async throws {
        let log = MCPServerLinkTests.Log()
        let server = EchoingServer()
        let link = Self.link(server, log: log)
        await link.start()
        server.failRefresh.store(true, ordering: .relaxed)
        link.requestRefresh()
        #expect(try await MCPServerLinkTests.eventually(.seconds(30)) { log.contains("mcp tools/list failed") })
        let logged = log.lines.locked { $0.first { $0.0 == "mcp tools/list failed" }?.1["error"]?.stringValue } ?? ""
        #expect(logged.contains("refused: you sent Bearer [redacted]"), "\(logged)")
        #expect(!log.lines.locked { "\($0)" }.contains("456789XYZ"))
        await link.stop()
    }
}
