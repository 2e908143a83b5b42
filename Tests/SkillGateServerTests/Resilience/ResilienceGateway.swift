import Testing
import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateRouting
@testable import SkillGateServer
import SkillGateTestSupport

/// A real gateway (`GatewayServer` on 127.0.0.1, ephemeral port) over a temporary config and
/// catalog whose providers (`up-a`, `up-b`, ...) point at upstream doubles.
final class ResilienceGateway: Sendable {
    let directory: String
    let server: GatewayServer
    let token: String
    /// A second client token, for what depends on which client asked.
    let otherToken: String
    /// The default client configuration on purpose: the least-in-flight test needs two concurrent
    /// requests to one plain-http host (no PIPEWAIT serialization).
    let http = HTTPClient()
    private let logPath: String
    private let logFD: Int32

    /// - Parameters:
    ///   - providers: provider id → base URL (each offers the model `m`).
    ///   - tier: the `light` tier, e.g. `["up-a/m", "up-b/m"]`.
    ///   - resilience: the `resilience` config section as JSON text.
    ///   - keys: when set, every provider authenticates with `Authorization: Bearer` from the key pool
    ///     `UP_KEY` (`UP_KEY`, `UP_KEY_2`, ...), and these keys are stored in the key file.
    ///   - limits: the `limits` config section as JSON text.
    ///   - upstreamHTTP1: the `upstream_http1` setting, nil to leave it out.
    ///   - wireFormats: provider id → its `wire_format` (`anthropic-messages`, `gemini`); `openai-chat` when not named.
    ///   - toolModes: provider id → its model's `tools` (`prompt`: the prompt-tools adapter); `native` when not named.
    ///   - countTokens: provider id → its file's `count_tokens`; left out when not named (the wire format's default).
    ///   - providerSettings: the config's `providers` section as JSON text (`{"up-a":{"count_tokens":false}}`), nil to
    ///     leave it out.
    ///   - idleSeconds: `upstream_timeouts.idle_seconds`, the longest an upstream stream may stay quiet.
    ///   - totalSeconds: `upstream_timeouts.total_seconds`, the longest an upstream call may take in all.
    init(providers: [(String, String)], tier: [String], resilience: String = "{}", firstByteSeconds: Double = 5, idleSeconds: Double = 5,
         totalSeconds: Double = 30,
         clock: any ResilienceClock = SystemResilienceClock(), keys: [(String, String)] = [], limits: String = "{}",
         upstreamHTTP1: String? = nil, wireFormats: [String: String] = [:], toolModes: [String: String] = [:],
         countTokens: [String: Bool] = [:], providerSettings: String? = nil, modelPrice: String? = nil) throws {
        directory = NSTemporaryDirectory() + "skillgate-resilience-" + UUID().uuidString
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for (id, base) in providers {
            let auth = keys.isEmpty ? #""auth":"none""# : #""auth":"bearer","key_name":"UP_KEY""#
            let counts = countTokens[id].map { #""count_tokens":\#($0),"# } ?? ""
            let spec = #"{"id":"\#(id)","display_name":"\#(id)","wire_format":"\#(wireFormats[id] ?? "openai-chat")","base_url":"\#(base)",\#(auth),\#(counts)"models":[{"id":"m","tier":"light","context_window":8000,"tools":"\#(toolModes[id] ?? "native")"\#(modelPrice.map { #","price":\#($0)"# } ?? "")}]}"#
            try spec.writeAtomically(toFile: "\(directory)/providers/\(id).json")
        }
        let tierJSON = tier.map { "\"\($0)\"" }.joined(separator: ",")
        let config = #"""
        {"listen":"127.0.0.1:0","state_dir":"state","key_file":"state/keys/keys.json","providers_dir":"providers",
         "tiers":{"light":[\#(tierJSON)]},"default_model":"light",
         "upstream_timeouts":{"connect_seconds":2,"first_byte_seconds":\#(firstByteSeconds),"idle_seconds":\#(idleSeconds),"total_seconds":\#(totalSeconds)},
         \#(upstreamHTTP1.map { #""upstream_http1":"\#($0)","# } ?? "")\#(providerSettings.map { #""providers":\#($0),"# } ?? "")"resilience":\#(resilience),"limits":\#(limits)}
        """#
        try config.writeAtomically(toFile: directory + "/skillgate.json")
        let loaded = try GatewayConfig.load(path: directory + "/skillgate.json")
        if !keys.isEmpty {
            let store = try KeyStore(path: loaded.keyFile)
            for (name, secret) in keys { try store.set(name, secret: secret) }
        }
        let tokens = try GatewayServer.openTokenService(config: loaded)
        token = try tokens.create(name: "resilience-test").token
        otherToken = try tokens.create(name: "resilience-test-2").token
        logPath = directory + "/gateway.log"
        logFD = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        server = try GatewayServer(config: loaded, logFD: logFD, clock: clock)
        try server.start()
    }

    var url: String { "http://127.0.0.1:\(server.boundPort)/v1/chat/completions" }

    /// The body of a chat request; `messages` is raw JSON.
    /// The tools the recorded answers call (`create_file`, `delete_file`, `get_capital`) and the
    /// follow-ups answer (`lookup`): offered, so the invisible-call rule lets the calls through.
    static let tools = ["create_file", "delete_file", "get_capital", "lookup"].map {
        #"{"type":"function","function":{"name":"\#($0)","parameters":{"type":"object","properties":{}}}}"#
    }.joined(separator: ",")

    static func body(model: String, stream: Bool = false, messages: String = #"[{"role":"user","content":"hi"}]"#) -> [UInt8] {
        Array(#"{"model":"\#(model)","stream":\#(stream),"messages":\#(messages),"tools":[\#(tools)]}"#.utf8)
    }

    private func request(_ body: [UInt8], token: String? = nil) -> HTTPRequest {
        HTTPRequest(url: url, headers: ["authorization": "Bearer \(token ?? self.token)", "content-type": "application/json"], body: body,
                    timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(30), idle: .seconds(30), total: .seconds(60)))
    }

    /// Sends a chat request with the test token, or with `token`.
    func send(_ body: [UInt8], token: String? = nil) async throws -> HTTPResponse {
        try await http.send(request(body, token: token))
    }

    /// A GET of the gateway's `path` (`/metrics`) with the test token.
    func get(_ path: String) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(server.boundPort)\(path)", headers: ["authorization": "Bearer \(token)"]))
    }

    /// Sends a streaming request; returns the status and the whole body as text.
    func stream(_ body: [UInt8]) async throws -> (status: Int, text: String) {
        let (status, _, text) = try await streamWithHeaders(body)
        return (status, text)
    }

    /// `stream`, with the reply's head fields.
    func streamWithHeaders(_ body: [UInt8]) async throws -> (status: Int, headers: HTTPHeaders, text: String) {
        let response = try await http.stream(request(body))
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes += chunk }
        return (response.status, response.headers, String(decoding: bytes, as: UTF8.self))
    }

    /// The request log lines written so far (JSON objects), waiting briefly for the last one.
    func logLines(atLeast count: Int = 1) async -> [[String: Any]] {
        for _ in 0..<100 {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }.filter { $0["request_id"] != nil }
            if lines.count >= count { return lines }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return []
    }

    func stop() async {
        await server.shutdown()
        http.shutdown()
        close(logFD)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension ResilienceGateway {
    /// Runs `body` with a gateway whose light tier is `tier` over two upstream doubles, `up-a` answering `a` (in the
    /// wire format `formatA`) and `up-b` answering `b`; records a thrown error as the test's issue, then stops all three.
    static func withTwoUpstreams(a: [UpstreamDouble.Reply], b: [UpstreamDouble.Reply], tier: [String] = ["up-a/m", "up-b/m"],
                                 resilience: String = "{}", firstByteSeconds: Double = 5, formatA: String = "openai-chat",
                                 _ body: (ResilienceGateway, UpstreamDouble, UpstreamDouble) async throws -> Void) async throws {
        let da = try UpstreamDouble(a), db = try UpstreamDouble(b)
        let gateway = try ResilienceGateway(providers: [("up-a", da.baseURL), ("up-b", db.baseURL)], tier: tier, resilience: resilience,
                                            firstByteSeconds: firstByteSeconds, wireFormats: ["up-a": formatA])
        do {
            try await body(gateway, da, db)
        } catch {
            Issue.record(error)
        }
        await gateway.stop()
        await da.stop()
        await db.stop()
    }
}
