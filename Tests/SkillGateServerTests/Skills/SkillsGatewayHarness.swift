import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer
import SkillGateTestSupport

/// A real gateway on 127.0.0.1 in front of a `ScriptedUpstream`, with its own temporary catalog,
/// state directory, token and log file. Models of provider `up`: `light-native` (light),
/// `light-prompt` (light, prompt-tools), `strong-native` (strong).
final class SkillsGatewayHarness {
    let upstream: ScriptedUpstream
    let upstreamServer: HTTPServer
    let gateway: GatewayServer
    let client = HTTPClient()
    let token: String
    let directory: String
    let logPath: String
    let gatewayConfig: GatewayConfig

    /// `providers` adds catalog files (`id` → JSON) beside the upstream double's `up.json`.
    /// `now` is the gateway's wall clock (limit windows, stored responses' expiry). `priced` gives `light-native`
    /// and `strong-native` catalog prices (USD per million tokens: 1 in and 2 out, and 10 in and 20 out).
    init(config: String, script: [String: ScriptedAnswer], providers: [String: String] = [:], priced: Bool = false,
         now: @escaping @Sendable () -> Date = { Date() }) throws {
        (upstream, upstreamServer, _) = try ScriptedUpstream.start(script)
        directory = NSTemporaryDirectory() + "skillgate-skills-\(UUID().uuidString)"
        let extraProviders = providers
        let providers = directory + "/Providers"
        try FileManager.default.createDirectory(atPath: providers, withIntermediateDirectories: true)
        let catalog = #"""
        {"id":"up","display_name":"Upstream double","wire_format":"openai-chat","base_url":"http://127.0.0.1:\#(upstreamServer.boundPort)/v1","auth":"none",
         "models":[{"id":"light-native","tier":"light","tools":"native"\#(priced ? #","price":{"input_per_mtok":1,"output_per_mtok":2}"# : "")},
                   {"id":"light-prompt","tier":"light","tools":"prompt"},
                   {"id":"strong-native","tier":"strong","tools":"native"\#(priced ? #","price":{"input_per_mtok":10,"output_per_mtok":20}"# : "")}]}
        """#
        try catalog.writeAtomically(toFile: providers + "/up.json")
        for (id, json) in extraProviders { try json.writeAtomically(toFile: providers + "/\(id).json") }
        let configPath = directory + "/skillgate.json"
        let full = #"""
        {"listen":"127.0.0.1:0","state_dir":"state","key_file":"keys/keys.json","providers_dir":"Providers",
         "tiers":{"light":["up/light-native"],"strong":["up/strong-native"]},"default_model":"light",
        """# + config + "}"
        try full.writeAtomically(toFile: configPath)
        let loaded = try GatewayConfig.load(path: configPath)
        gatewayConfig = loaded
        token = try GatewayServer.openTokenService(config: loaded).create(name: "skills-test").token
        logPath = directory + "/requests.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let fd = open(logPath, O_WRONLY | O_APPEND)
        gateway = try GatewayServer(config: loaded, logFD: fd, now: now)
        try gateway.start()
    }

    /// Posts an OpenAI chat request; returns status, headers and body text.
    func chat(_ body: JSONValue, scenario: String? = nil, token: String? = nil, path: String = "/v1/chat/completions") async throws -> (status: Int, headers: HTTPHeaders, body: String) {
        var headers: HTTPHeaders = ["authorization": "Bearer \(token ?? self.token)", "content-type": "application/json"]
        if let scenario { headers.add("x-skillgate-scenario", scenario) }
        let response = try await client.send(HTTPRequest(url: "http://127.0.0.1:\(gateway.boundPort)\(path)",
                                                        headers: headers, body: body.serializedBytes()))
        return (response.status, response.headers, String(decoding: response.body, as: UTF8.self))
    }

    /// The log as it was when `stop()` removed the temporary directory.
    private var finalLog: String?

    /// A token limited to `models` (tiers, aliases or `provider/model`s).
    func makeToken(name: String, models: [String]) throws -> String {
        try GatewayServer.openTokenService(config: gatewayConfig).create(name: name, models: models).token
    }

    /// The request log lines written so far (or until `stop()`), parsed.
    func logLines() async -> [JSONValue] {
        await allLogLines().filter { $0["request_id"] != nil }
    }

    /// The log's event lines (`"event": ...`, not requests) written so far (or until `stop()`), parsed.
    func logEvents() async -> [JSONValue] {
        await allLogLines().filter { $0["event"] != nil }
    }

    private func allLogLines() async -> [JSONValue] {
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

    /// A chat request body with OpenAI function tools.
    static func request(_ text: String, tools: [ToolDefinition], model: String = "auto", stream: Bool = false) -> JSONValue {
        let toolValues: [JSONValue] = tools.map { t in
            ["type": "function", "function": ["name": .string(t.name), "description": .string(t.description ?? ""), "parameters": t.parameters]]
        }
        var o: JSONObject = ["model": .string(model), "messages": [["role": "user", "content": .string(text)]]]
        if !toolValues.isEmpty { o["tools"] = .array(toolValues) }
        if stream { o["stream"] = true }
        return .object(o)
    }

    /// An Anthropic Messages request body with tools.
    static func anthropicRequest(_ text: String, tools: [ToolDefinition], model: String = "auto", stream: Bool = false) -> JSONValue {
        var o: JSONObject = ["model": .string(model), "max_tokens": 256, "messages": [["role": "user", "content": .string(text)]]]
        o["tools"] = .array(tools.map { ["name": .string($0.name), "description": .string($0.description ?? ""), "input_schema": $0.parameters] })
        if stream { o["stream"] = true }
        return .object(o)
    }

    static let weather = ToolDefinition(name: "get_weather", description: "Current weather for a city",
                                        parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
    static let deleteFiles = ToolDefinition(name: "delete_files", description: "Delete files")
}
