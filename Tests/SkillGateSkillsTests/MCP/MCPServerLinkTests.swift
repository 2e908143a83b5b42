import Glibc
import SkillGateCore
import SkillGateHTTP
import Synchronization
import Testing
import SkillGateTestSupport
@testable import SkillGateSkills

/// The link that keeps one MCP server connected: skills from its tools, a down server's clear
/// message, restart with backoff, refresh on notifications/tools/list_changed, bounded tool lists.
@Suite struct MCPServerLinkTests {
    final class Log: Sendable {
        let lines = Mutex<[(String, JSONObject)]>([])
        var logger: MCPServerLink.Logger { { message, fields, _ in self.lines.locked { $0.append((message, fields)) } } }
        func contains(_ message: String) -> Bool { lines.locked { $0.contains { $0.0 == message } } }
        func notes() -> [String] { lines.locked { $0.compactMap { $0.1["note"]?.stringValue } } }
    }

    static func httpLink(_ url: String, http: HTTPClient, log: Log, maxTools: Int = 128, maxPages: Int = 10,
                         callTimeout: Duration = .seconds(5), maxBackoff: Duration = .milliseconds(400),
                         changed: @escaping @Sendable () -> Void = {}) -> MCPServerLink {
        let config = MCPServerConfig(name: "srv", transport: .http(url: url, headers: [:]), callTimeout: callTimeout, connectTimeout: .seconds(2),
                                     maxTools: maxTools, maxPages: maxPages)
        return MCPServerLink(config: config, tick: .milliseconds(50), maxBackoff: maxBackoff, log: log.logger, changed: changed) { inbound throws(MCPError) in
            MCPHTTPTransport(http: http, url: url, headers: [], secrets: { _ in nil }, inbound: inbound)
        }
    }

    /// A link whose requests carry `Authorization: Bearer ${secret:MCP_KEY}`, the key store holding `secret`.
    static func httpLink(_ url: String, http: HTTPClient, log: Log, secret: String) -> MCPServerLink {
        let headers = ["Authorization": "Bearer ${secret:MCP_KEY}"]
        let config = MCPServerConfig(name: "srv", transport: .http(url: url, headers: headers), callTimeout: .seconds(5), connectTimeout: .seconds(2))
        return MCPServerLink(config: config, tick: .milliseconds(50), maxBackoff: .milliseconds(400), log: log.logger) { inbound throws(MCPError) in
            MCPHTTPTransport(http: http, url: url, headers: headers.map { ($0.key, $0.value) }, secrets: { $0 == "MCP_KEY" ? secret : nil }, inbound: inbound)
        }
    }

    static func stdioLink(_ command: String, _ arguments: [String], log: Log, refresh: Duration = .seconds(300)) -> MCPServerLink {
        let config = MCPServerConfig(name: "py", transport: .stdio(command: command, arguments: arguments, environment: [:]),
                                     callTimeout: .seconds(60), connectTimeout: .seconds(120), refreshInterval: refresh)
        return MCPServerLink(config: config, tick: .milliseconds(50), maxBackoff: .milliseconds(400), log: log.logger) { inbound throws(MCPError) in
            try MCPStdioTransport(command: command, arguments: arguments, environment: [], inbound: inbound)
        }
    }

    static func eventually(_ timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(25))
        }
        return condition()
    }

    @Test func toolsBecomeSkillsNamedServerDoubleUnderscoreTool() async throws {
        let double = try MCPHTTPDouble(.healthy)
        let http = HTTPClient()
        defer { http.shutdown() }
        let log = Log()
        let source = MCPSkillSource(reserved: ["srv__add"], log: log.logger) { changed in [Self.httpLink(double.url, http: http, log: log, changed: changed)] }
        await source.start()
        // `srv__add` collides with a configured skill: skipped and logged; `srv__echo` is a skill.
        #expect(source.current.map(\.name) == ["srv__echo"])
        #expect(log.contains("mcp tool skipped"))
        let echo = try #require(source.skill(named: "srv__echo"))
        #expect(echo.id == "mcp.srv.echo")
        #expect(echo.parameters["required"] == ["text"])
        // Its definition is made once per tool list, the schema kept as text for every request that shows it.
        #expect(echo.toolDefinition.schema.isText && echo.toolDefinition.parameters == echo.parameters)
        #expect(echo.toolDefinition.name == "srv__echo" && echo.toolDefinition.description == echo.description)
        let result = try await echo.execute(["text": "hello"], context: SkillContext(tokenName: "t", requestId: "r"))
        #expect(result.text == "echo: hello" && !result.isError)
        let registry = try SkillRegistry([], live: source)
        #expect(registry.contains("srv__echo") && registry.all.count == 1)
        #expect(registry.registered.map(\.definition) == [echo.toolDefinition])
        #expect(registry.registered.allSatisfy { $0.definition.schema.isText })
        await source.stop()
        await double.stop()
    }

    /// A server that sends back the secret it was given, in a result's text and structured content or in an error,
    /// never gets it to the model, the client or the log.
    @Test func aSecretTheServerSendsBackIsRedacted() async throws {
        let secret = "mcp-token-0123456789abcdef"
        let double = try MCPHTTPDouble(.healthy)
        let http = HTTPClient()
        defer { http.shutdown() }
        let log = Log()
        let link = Self.httpLink(double.url, http: http, log: log, secret: secret)
        await link.start()
        #expect(double.server.requests.allSatisfy { $0.headers["Authorization"] == "Bearer \(secret)" }, "the server gets the secret")
        guard case .result(let echoed) = await link.call("whoami", arguments: .object([:])) else {
            Issue.record("whoami must answer")
            return
        }
        #expect(echoed.text == "you sent Bearer [redacted]")
        #expect(echoed.structured == ["authorization": "Bearer [redacted]", "seen": ["Bearer [redacted]"]])
        guard case .failure(let refusal) = await link.call("refuse", arguments: .object([:])) else {
            Issue.record("refuse must fail")
            return
        }
        #expect(refusal.contains("not allowed with Bearer [redacted]") && !refusal.contains(secret), "\(refusal)")
        #expect(!log.lines.locked { "\($0)" }.contains(secret))
        await link.stop()
        await double.stop()
    }

    @Test func aServerThatIsDownMakesItsToolsAnswerWithAClearMessage() async throws {
        let double = try MCPHTTPDouble(.healthy)
        let http = HTTPClient()
        defer { http.shutdown() }
        let log = Log()
        let link = Self.httpLink(double.url, http: http, log: log)
        await link.start()
        #expect(link.unavailableReason == nil)
        await double.stop()
        let skill = MCPSkill(link: link, tool: link.tools[0], name: "srv__echo")
        // The first call finds the server gone; the next answers at once that it is unavailable.
        for _ in 0..<2 {
            let result = try await skill.execute(["text": "x"], context: SkillContext(tokenName: "t", requestId: "r"))
            #expect(result.isError)
            #expect(result.text.contains("MCP server \"srv\"") && result.text.lowercased().contains("try again later"), "\(result.text)")
        }
        #expect(link.unavailableReason != nil)
        // Its tools stay listed, so the model is told why instead of losing them silently.
        #expect(link.tools.map(\.name) == ["echo", "add"])
        #expect(log.contains("mcp server disconnected"))
        await link.stop()
    }

    @Test func aServerThatNeverComesUpIsRetriedWithBackoffAndListsNothing() async throws {
        let http = HTTPClient()
        defer { http.shutdown() }
        let log = Log()
        let closed = try UnlistenedPort()
        let url = "http://127.0.0.1:\(closed.port)/mcp"
        let link = Self.httpLink(url, http: http, log: log, maxBackoff: .seconds(1))
        await link.start()
        #expect(link.tools.isEmpty)
        #expect(link.unavailableReason?.contains("unreachable") == true)
        // A generous bound: it only ends a failing test, and a loaded parallel run delayed these 1 s retries by seconds.
        #expect(try await Self.eventually(.seconds(30)) { log.lines.locked { $0.filter { $0.0 == "mcp server unavailable" }.count } >= 3 })
        let delays = log.lines.locked { $0.compactMap { $0.1["retry_in_ms"]?.intValue } }
        // 0.5 s doubling, capped at max_backoff (1 s here).
        #expect(Array(delays.prefix(3)) == [500, 1000, 1000])
        await link.stop()
        withExtendedLifetime(closed) {}
    }

    @Test func aHangingToolCallIsStoppedAtTheCallTimeout() async throws {
        let double = try MCPHTTPDouble(.hangOnCall)
        let http = HTTPClient()
        defer { http.shutdown() }
        let log = Log()
        let link = Self.httpLink(double.url, http: http, log: log, callTimeout: .milliseconds(300))
        await link.start()
        let start = ContinuousClock.now
        guard case .failure(let why) = await link.call("echo", arguments: ["text": "x"]) else {
            Issue.record("a hanging call must fail")
            return
        }
        #expect(why.contains("did not answer within 0.3 s"))
        #expect(ContinuousClock.now - start < .seconds(20))
        await link.stop()
        await double.stop()
    }

    @Test func oneThousandToolsAreCappedAndLogged() async throws {
        let double = try MCPHTTPDouble(.manyTools(count: 1000, pageSize: 100))
        let http = HTTPClient()
        defer { http.shutdown() }
        let log = Log()
        let source = MCPSkillSource(reserved: [], log: log.logger) { changed in [Self.httpLink(double.url, http: http, log: log, maxTools: 128, changed: changed)] }
        await source.start()
        #expect(source.current.count == 128)
        #expect(log.notes().contains { $0.contains("more than 128 tools") })
        await source.stop()
        await double.stop()
    }

    @Test func invalidJSONRPCLeavesTheServerDownNotTheGateway() async throws {
        let double = try MCPHTTPDouble(.invalidJSONRPC)
        let http = HTTPClient()
        defer { http.shutdown() }
        let log = Log()
        let link = Self.httpLink(double.url, http: http, log: log)
        await link.start()
        #expect(link.tools.isEmpty)
        #expect(link.unavailableReason?.contains("not JSON-RPC") == true)
        await link.stop()
        await double.stop()
    }

    @Test(.enabled(if: MCPExampleServer.python != nil, MCPExampleServer.missing))
    func refreshesOnListChangedAndRestartsAServerThatDied() async throws {
        let log = Log()
        let link = Self.stdioLink(MCPExampleServer.python!, [MCPExampleServer.script, "stdio"], log: log)
        await link.start()
        #expect(!link.tools.map(\.name).contains("extra"))
        guard case .result(let grown) = await link.call("grow", arguments: .object([:])) else {
            Issue.record("grow must run")
            return
        }
        #expect(grown.text == "grown")
        #expect(try await Self.eventually(.seconds(60)) { link.tools.map(\.name).contains("extra") })

        // Killed from outside: the link notices, restarts the server, and calls work again.
        let pid = try #require(link.processId)
        kill(-pid, SIGKILL)
        #expect(try await Self.eventually(.seconds(120)) { link.processId != nil && link.processId != pid && link.unavailableReason == nil })
        guard case .result(let sum) = await link.call("add", arguments: ["a": 1, "b": 2]) else {
            Issue.record("add must run after the restart")
            return
        }
        #expect(sum.text == "3")
        let last = try #require(link.processId)
        await link.stop()
        #expect(!processExists(last))
    }
}
