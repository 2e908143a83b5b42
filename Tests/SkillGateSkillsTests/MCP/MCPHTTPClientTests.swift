import SkillGateCore
import SkillGateHTTP
import Synchronization
import Testing
import SkillGateTestSupport
@testable import SkillGateSkills

/// The streamable-HTTP client against `MCPHTTPDouble`: the lifecycle, sessions, SSE answers, and
/// the bad servers (hanging, invalid JSON-RPC, 1,000 tools, unreachable), each a clear error within
/// its timeout.
@Suite struct MCPHTTPClientTests {
    static func session(_ double: MCPHTTPDouble, http: HTTPClient, headers: [(String, String)] = [],
                        inbound: @escaping MCPInbound = { _ in }) -> MCPClientSession {
        MCPClientSession(transport: MCPHTTPTransport(http: http, url: double.url, headers: headers, secrets: { $0 == "MCP_KEY" ? "sk-mcp-secret" : nil }, inbound: inbound))
    }

    @Test(arguments: [MCPHTTPDouble.Behaviour.healthy, .eventStream])
    func initializesListsAndCallsTools(_ behaviour: MCPHTTPDouble.Behaviour) async throws {
        let double = try MCPHTTPDouble(behaviour)
        let http = HTTPClient()
        defer { http.shutdown() }
        let seen = Mutex<[String]>([])
        let session = Self.session(double, http: http, headers: [("Authorization", "Bearer ${secret:MCP_KEY}")]) { message in
            if case .notification(let method, _) = message { seen.locked { $0.append(method) } }
        }
        let name = try await session.initialize(timeout: .seconds(5))
        #expect(name == "double")
        #expect(session.protocolVersion == "2025-06-18")
        let listing = try await session.listTools(maxTools: 10, maxPages: 3, timeout: .seconds(5))
        #expect(listing.tools.map(\.name) == ["echo", "add"])
        let echoed = try await session.callTool("echo", arguments: ["text": "hi"], timeout: .seconds(5))
        #expect(echoed.text == "echo: hi" && !echoed.isError)
        #expect(double.receivedMethods == ["initialize", "notifications/initialized", "tools/list", "tools/call"])
        // The session id from initialize and the secret header reach the server; the version header too.
        let requests = double.server.requests
        #expect(requests.dropFirst().allSatisfy { $0.headers["Mcp-Session-Id"] == "session-1" && $0.headers["MCP-Protocol-Version"] == "2025-06-18" })
        #expect(requests.allSatisfy { $0.headers["Authorization"] == "Bearer sk-mcp-secret" })
        if case .eventStream = behaviour { #expect(seen.locked { $0 }.contains("notifications/message")) }
        await double.stop()
    }

    /// The transport names the secrets it sent, so they can be taken out of what the server says: those in the key
    /// store now, and one that was rotated after a request carried it.
    @Test func theSecretsSentAreKnownAcrossARotation() async throws {
        let double = try MCPHTTPDouble(.healthy)
        let http = HTTPClient()
        defer { http.shutdown() }
        let current = Mutex("old-secret-0123456789")
        let transport = MCPHTTPTransport(http: http, url: double.url, headers: [("Authorization", "Bearer ${secret:MCP_KEY}")],
                                         secrets: { name in name == "MCP_KEY" ? current.locked { $0 } : nil }, inbound: { _ in })
        #expect(transport.secretsSent == ["old-secret-0123456789"])
        _ = try await MCPClientSession(transport: transport).initialize(timeout: .seconds(5))
        current.locked { $0 = "new-secret-0123456789" }
        #expect(transport.secretsSent == ["old-secret-0123456789", "new-secret-0123456789"])
        await double.stop()
    }

    @Test func aServerThatHangsIsATimeoutWithinTheLimit() async throws {
        let double = try MCPHTTPDouble(.hangAlways)
        let http = HTTPClient()
        defer { http.shutdown() }
        let start = ContinuousClock.now
        do {
            try await Self.session(double, http: http).initialize(timeout: .milliseconds(400))
            Issue.record("a hanging server must time out")
        } catch {
            #expect(error.kind == .timeout)
            #expect(error.message.contains("within 0.4 s"))
        }
        // Bounded. The timeout's timer is a task on the cooperative pool, which the whole suite running in parallel keeps
        // busy for 20–30 s on two cores; the error's kind and text show it was the timeout, not the double's hang ending.
        #expect(ContinuousClock.now - start < .seconds(60))
        await double.stop()
    }

    @Test func invalidJSONRPCIsAProtocolErrorNamingIt() async throws {
        let double = try MCPHTTPDouble(.invalidJSONRPC)
        let http = HTTPClient()
        defer { http.shutdown() }
        do {
            try await Self.session(double, http: http).initialize(timeout: .seconds(5))
            Issue.record("invalid JSON-RPC must be refused")
        } catch {
            #expect(error.kind == .protocolViolation)
            #expect(error.message.contains("not JSON-RPC"))
        }
        await double.stop()
    }

    @Test(arguments: [(100, 10, 100, true), (1000, 100, 1000, false), (1000, 5, 250, true), (30, 7, 30, true)])
    func oneThousandToolsAreCappedAndPagesBounded(maxTools: Int, maxPages: Int, expected: Int, noted: Bool) async throws {
        let double = try MCPHTTPDouble(.manyTools(count: 1000, pageSize: 50))
        let http = HTTPClient()
        defer { http.shutdown() }
        let session = Self.session(double, http: http)
        try await session.initialize(timeout: .seconds(5))
        let listing = try await session.listTools(maxTools: maxTools, maxPages: maxPages, timeout: .seconds(5))
        #expect(listing.tools.count == expected)
        #expect(listing.tools.first?.name == "tool_0")
        #expect(listing.notes.isEmpty == !noted)
        let pagesAsked = double.receivedMethods.filter { $0 == "tools/list" }.count
        #expect(pagesAsked <= maxPages)
        await double.stop()
    }

    @Test func anUnreachableServerIsUnavailable() async throws {
        let closed = try UnlistenedPort()
        let url = "http://127.0.0.1:\(closed.port)/mcp"
        let http = HTTPClient()
        defer { http.shutdown() }
        let session = MCPClientSession(transport: MCPHTTPTransport(http: http, url: url, headers: [], secrets: { _ in nil }, inbound: { _ in }))
        do {
            try await session.initialize(timeout: .seconds(3))
            Issue.record("an unreachable server must fail")
        } catch {
            #expect(error.kind == .unavailable)
        }
        withExtendedLifetime(closed) {}
    }

    @Test func aMissingSecretIsNamedNeverGuessed() async throws {
        let double = try MCPHTTPDouble(.healthy)
        let http = HTTPClient()
        defer { http.shutdown() }
        do {
            try await Self.session(double, http: http, headers: [("Authorization", "Bearer ${secret:OTHER}")]).initialize(timeout: .seconds(3))
            Issue.record("a missing secret must fail")
        } catch {
            #expect(error.message.contains("\"OTHER\"") && error.message.contains("skillgate keys set OTHER"))
        }
        #expect(double.server.requests.isEmpty)
        await double.stop()
    }
}
