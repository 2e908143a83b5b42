import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer
import SkillGateTestSupport

/// A real gateway (`GatewayServer` on 127.0.0.1) in front of one OpenAI-format upstream double (`up`: `up/m` is the
/// light tier, `up/m2` the strong one), with the response cache configured by `responseCache` (the top-level section as
/// JSON text, nil: none), a wall clock the test moves, two client tokens, the request log in a file and the ledger in
/// the state directory's SQLite file. Scenarios: `chat` (the gateway's setting), `other` (answers kept 600 s),
/// `uncached` (the cache off), `cut` (only the client tool `lookup` is shown; others are removed).
final class ResponseCacheGateway: Sendable {
    let directory: String
    let server: GatewayServer
    let token: String
    let otherToken: String
    let http = HTTPClient()
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_790_000_000))
    let logPath: String
    private let logFD: Int32

    /// The scenarios of the config, as JSON text.
    static let scenarios = #"{"chat":{},"other":{"response_cache":{"ttl_seconds":600}},"uncached":{"response_cache":{"enabled":false}},"cut":{"skill_packs":["p"]}}"#

    init(upstream: UpstreamDouble, responseCache: String? = #"{"ttl_seconds":60}"#, scenarios: String = ResponseCacheGateway.scenarios,
         extraConfig: String = "", tokenLimits: TokenLimits = TokenLimits()) throws {
        directory = NSTemporaryDirectory() + "skillgate-response-cache-" + UUID().uuidString
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let spec = #"{"id":"up","display_name":"up","wire_format":"openai-chat","base_url":"\#(upstream.baseURL)","auth":"none","models":[{"id":"m","tier":"light","context_window":8000,"tools":"native","price":{"input_per_mtok":1.0,"output_per_mtok":2.0}},{"id":"m2","tier":"strong","context_window":8000,"tools":"native"}]}"#
        try spec.writeAtomically(toFile: directory + "/providers/up.json")
        let config = #"""
        {"listen":"127.0.0.1:0","state_dir":"state","key_file":"state/keys/keys.json","providers_dir":"providers",
         "tiers":{"light":["up/m"],"strong":["up/m2"]},"default_model":"light",
         "scenarios":\#(scenarios),
         "skill_packs":{"p":["lookup"]},
         "upstream_timeouts":{"connect_seconds":2,"first_byte_seconds":10,"idle_seconds":10,"total_seconds":30},
         "resilience":{"max_attempts":1},"limits":{"shutdown_grace_seconds":1}\#(responseCache.map { #","response_cache":"# + $0 } ?? "")\#(extraConfig)}
        """#
        try config.writeAtomically(toFile: directory + "/skillgate.json")
        let loaded = try GatewayConfig.load(path: directory + "/skillgate.json")
        let tokens = try GatewayServer.openTokenService(config: loaded)
        token = try tokens.create(name: "cache-app", limits: tokenLimits).token
        otherToken = try tokens.create(name: "cache-other-app").token
        logPath = directory + "/gateway.log"
        logFD = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        let clock = self.clock
        server = try GatewayServer(config: loaded, logFD: logFD, now: { clock.now })
        try server.start()
    }

    var base: String { "http://127.0.0.1:\(server.boundPort)" }

    /// A chat body asking `question`, with `extra` members (JSON text after a comma) and the light tier unless `extra`
    /// names a model.
    static func chat(_ question: String, _ extra: String = "") -> String {
        #"{"model":"light","messages":[{"role":"user","content":"\#(question)"}]\#(extra.isEmpty ? "" : "," + extra)}"#
    }

    /// A whole answer: status, head fields and body.
    func post(_ body: String, path: String = "/v1/chat/completions", token: String? = nil, headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
        var fields: HTTPHeaders = ["authorization": "Bearer \(token ?? self.token)", "content-type": "application/json",
                                   "anthropic-version": "2023-06-01"]
        for f in headers { fields.add(f.name, f.value) }
        return try await http.send(HTTPRequest(method: "POST", url: base + path, headers: fields, body: Array(body.utf8),
                                               timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(30), idle: .seconds(30), total: .seconds(60))))
    }

    /// A streamed answer read to its end: status, head fields and the whole body as text.
    func stream(_ body: String, path: String = "/v1/chat/completions", headers: HTTPHeaders = [:]) async throws -> (status: Int, headers: HTTPHeaders, text: String) {
        var fields: HTTPHeaders = ["authorization": "Bearer \(token)", "content-type": "application/json", "anthropic-version": "2023-06-01"]
        for f in headers { fields.add(f.name, f.value) }
        let response = try await http.stream(HTTPRequest(method: "POST", url: base + path, headers: fields, body: Array(body.utf8)))
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes += chunk }
        return (response.status, response.headers, String(decoding: bytes, as: UTF8.self))
    }

    func get(_ path: String) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(method: "GET", url: base + path, headers: ["authorization": "Bearer \(token)"]))
    }

    /// The request log's lines, waiting (up to 5 s) until there are at least `count`.
    func logLines(atLeast count: Int = 1) async -> [JSONValue] {
        for _ in 0..<250 {
            await server.flushLog()
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }.filter { $0["request_id"] != nil }
            if lines.count >= count { return lines }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return []
    }

    /// Every ledger row (kind, model, tokens, cost, outcome, attempts), oldest first.
    func ledgerRows() async throws -> [[String: String]] {
        await server.flushLedger()
        guard let store = server.services.tokens.store as? SQLiteStateStore else { return [] }
        let names = ["kind", "token_name", "scenario", "provider", "model", "input_tokens", "output_tokens", "cost_microdollars", "outcome", "status",
                     "stream", "attempts"]
        return try store.withConnection { db in
            try db.statement("SELECT \(names.joined(separator: ", ")) FROM usage_records ORDER BY id").rows { r in
                var row: [String: String] = [:]
                for (i, name) in names.enumerated() { row[name] = r.optionalText(Int32(i)) ?? "" }
                return row
            }
        }
    }

    /// The value of the metric series `series` (its name and labels as `/metrics` writes them), or nil.
    func metric(_ series: String) async throws -> Double? {
        let text = String(decoding: try await get("/metrics").body, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    func stop() async {
        await server.shutdown()
        http.shutdown()
        close(logFD)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `body` with a gateway in front of a double answering `replies`; stops both, recording a thrown error.
    static func with(_ replies: [UpstreamDouble.Reply], responseCache: String? = #"{"ttl_seconds":60}"#,
                     scenarios: String = ResponseCacheGateway.scenarios, extraConfig: String = "", tokenLimits: TokenLimits = TokenLimits(),
                     _ body: (ResponseCacheGateway, UpstreamDouble) async throws -> Void) async throws {
        let upstream = try UpstreamDouble(replies)
        let gateway: ResponseCacheGateway
        do {
            gateway = try ResponseCacheGateway(upstream: upstream, responseCache: responseCache, scenarios: scenarios, extraConfig: extraConfig,
                                               tokenLimits: tokenLimits)
        } catch {
            await upstream.stop()
            throw error
        }
        do {
            try await body(gateway, upstream)
        } catch {
            Issue.record(error)
        }
        await gateway.stop()
        await upstream.stop()
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }
    /// A Chat Completions answer's first choice.
    var firstChoice: JSONValue? { json["choices"]?.arrayValue?.first }
    /// A Chat Completions answer's text.
    var content: String? { firstChoice?["message"]?["content"]?.stringValue }
}
