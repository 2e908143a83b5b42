import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateSkills
@testable import SkillGateServer
import SkillGateTestSupport

/// A real gateway (test skills `multiply`, `clock` and `ticket`, which needs confirmation, the test's `extraSkills`, and
/// the `mcp_servers` given by the test) in front of an `AgentUpstream` that calls `tool`. Scenarios: `math` (default;
/// pack `multiply`) and `all` (multiply, clock, ticket, the extra skills, and every tool of each MCP server). Two
/// tokens: `token` and `otherToken`.
/// Test skills rather than the built-ins: the built-ins' 1 s timeouts are too short for a machine
/// running the whole suite in parallel.
final class MCPGatewayHarness {
    let upstream: AgentUpstream
    let upstreamServer: HTTPServer
    let gateway: GatewayServer
    let client = HTTPClient()
    let token: String
    let otherToken: String
    let directory: String
    let logPath: String

    /// `mcpServers` is the JSON object of `mcp_servers` (server name → settings).
    static let multiplySchema: JSONValue = ["type": "object", "properties": ["a": ["type": "integer"], "b": ["type": "integer"]], "required": ["a", "b"]]

    static func skills() -> [any Skill] {
        [TestSkill("multiply", parameters: multiplySchema, timeout: .seconds(30)) { args in
            let (a, b) = (args["a"]?.intValue ?? 0, args["b"]?.intValue ?? 0)
            return SkillResult(text: "\(a) * \(b) = \(a * b)", payload: ["a": .int(a), "b": .int(b), "product": .int(a * b)])
         },
         TestSkill.fixed("clock", "12:00"),
         TestSkill("ticket", requiresConfirmation: true) { _ in SkillResult(text: "opened") }]
    }

    init(mcpServers: JSONValue = .object([:]), tool: String = "multiply", extraSkills: [any Skill] = []) async throws {
        upstream = AgentUpstream(tool: tool)
        upstreamServer = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: upstream)
        try upstreamServer.start()
        directory = NSTemporaryDirectory() + "skillgate-mcp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/Providers", withIntermediateDirectories: true)
        let catalog = #"""
        {"id":"up","display_name":"Upstream double","wire_format":"openai-chat","base_url":"http://127.0.0.1:\#(upstreamServer.boundPort)/v1","auth":"none",
         "models":[{"id":"light-native","tier":"light","tools":"native"},{"id":"strong-native","tier":"strong","tools":"native"}]}
        """#
        try catalog.writeAtomically(toFile: directory + "/Providers/up.json")
        let prefixes = (extraSkills.map(\.name) + (mcpServers.objectValue?.keys ?? []).map { "\($0).*" }).map { ",\"\($0)\"" }.joined()
        let config = #"""
        {"listen":"127.0.0.1:0","state_dir":"state","key_file":"keys/keys.json","providers_dir":"Providers",
         "tiers":{"light":["up/light-native"],"strong":["up/strong-native"]},"default_model":"light",
         "mcp_servers":\#(mcpServers.serialized()),
         "skill_packs":{"math":["multiply"],"all":["multiply","clock","ticket"\#(prefixes)]},
         "scenarios":{"math":{"skill_packs":["math"]},"all":{"skill_packs":["all"]}},"default_scenario":"math",
         "agent":{"max_iterations":4},"limits":{"header_timeout_seconds":60,"body_timeout_seconds":60}}
        """#
        try config.writeAtomically(toFile: directory + "/skillgate.json")
        let loaded = try GatewayConfig.load(path: directory + "/skillgate.json")
        let tokens = try GatewayServer.openTokenService(config: loaded)
        token = try tokens.create(name: "mcp-test").token
        otherToken = try tokens.create(name: "mcp-other").token
        logPath = directory + "/requests.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        gateway = try GatewayServer(config: loaded, logFD: open(logPath, O_WRONLY | O_APPEND),
                                    serverSkills: try SkillRegistry(Self.skills() + extraSkills.map { PatientSkill($0) }))
        await gateway.connectMCPServers()
        try gateway.start()
    }

    /// POSTs `body` to `path`; `token: ""` sends none.
    func post(_ path: String, _ body: [UInt8], token: String? = nil, headers extra: HTTPHeaders = [:], method: String = "POST") async throws -> (status: Int, headers: HTTPHeaders, body: String) {
        var headers: HTTPHeaders = ["content-type": "application/json", "accept": "application/json, text/event-stream"]
        let token = token ?? self.token
        if !token.isEmpty { headers.add("authorization", "Bearer \(token)") }
        for f in extra { headers.add(f.name, f.value) }
        let response = try await client.send(HTTPRequest(method: method, url: "http://127.0.0.1:\(gateway.boundPort)\(path)", headers: headers, body: body))
        return (response.status, response.headers, String(decoding: response.body, as: UTF8.self))
    }

    /// A JSON-RPC request to `/mcp`; returns the status and the parsed answer.
    func rpc(_ method: String, _ params: JSONValue? = nil, id: Int = 1, scenario: String? = nil, token: String? = nil) async throws -> (status: Int, answer: JSONValue) {
        var o: JSONObject = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
        o.append("params", ifPresent: params)
        let r = try await post("/mcp", JSONValue.object(o).serializedBytes(), token: token, headers: scenario.map { ["x-skillgate-scenario": $0] } ?? [:])
        return (r.status, try JSONValue.parse(r.body))
    }

    private var finalLog: String?

    func logLines() async -> [JSONValue] {
        if finalLog == nil { await gateway.flushLog() }
        let text = finalLog ?? (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
    }

    func stop() async {
        await gateway.shutdown()
        await upstreamServer.shutdown(deadline: .seconds(2))
        client.shutdown()
        finalLog = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The SDK example server's Python (see Tests/SkillGateSkillsTests/Support/MCPExampleServer.swift).
enum MCPExamplePython {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let script = repository + "/Tests/Fixtures/mcp/example_server.py"
    static let python: String? = {
        // Set (scripts/test.sh sets it), it is required: the tests fail rather than skip when it cannot run the SDK.
        if let required = ProcessInfo.processInfo.environment["SKILLGATE_MCP_PYTHON"] { return required }
        let candidate = repository + "/.venv/bin/python"
        guard access(candidate, X_OK) == 0 else { return nil }
        return system("'\(candidate)' -c 'import mcp' >/dev/null 2>&1") == 0 ? candidate : nil
    }()
}

/// A skill with a 30 s timeout instead of its own: the notes skills' 5 s measured the queue of a machine running the whole
/// suite in parallel (both cooperative-pool threads busy for ~20 s at its start), not the skill.
struct PatientSkill: Skill {
    let inner: any Skill
    init(_ inner: any Skill) { self.inner = inner }
    var id: String { inner.id }
    var name: String { inner.name }
    var description: String { inner.description }
    var parameters: JSONValue { inner.parameters }
    var version: String { inner.version }
    var timeout: Duration { .seconds(30) }
    var requiresConfirmation: Bool { inner.requiresConfirmation }
    var mayBlock: Bool { inner.mayBlock }
    var annotations: SkillAnnotations { inner.annotations }
    var toolDefinition: ToolDefinition { inner.toolDefinition }
    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        try await inner.execute(arguments, context: context)
    }
}
