import Foundation
import Synchronization
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer
import SkillGateTestSupport

/// A gateway on loopback with the offline demo model priced at $1 per 10,000 input tokens and per 10,000 output
/// tokens (so requests cost something), a manual wall clock for limit windows, and `extraConfig` merged into its
/// config (`token_limits`, `scenarios`, `ledger`, `metrics`).
final class TeamHarness: @unchecked Sendable {
    let dir: URL
    let server: GatewayServer
    let token: String
    let http = HTTPClient()
    let clock: ManualWallClock
    let logPath: String
    static let providerKey = "sk-team-provider-secret-77c1"
    var base: String { "http://127.0.0.1:\(server.boundPort)" }

    /// `stateDirectory` (default: `state` in the harness's own directory) lets two harnesses share one.
    init(extraConfig: String = "", scenarios: String = #"{"chat":{},"other":{}}"#, tokenLimits: TokenLimits = TokenLimits(),
         start: Date? = Date(timeIntervalSince1970: 1_780_000_000), existingToken: String? = nil, stateDirectory: String = "state") throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-team-\(UUID().uuidString)")
        let providers = dir.appendingPathComponent("providers")
        try FileManager.default.createDirectory(at: providers, withIntermediateDirectories: true)
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let demo = try String(contentsOf: repo.appendingPathComponent("Providers/demo.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"input_per_mtok\": 0.0", with: "\"input_per_mtok\": 100.0")
            .replacingOccurrences(of: "\"output_per_mtok\": 0.0", with: "\"output_per_mtok\": 100.0")
        try demo.writeAtomically(toFile: providers.appendingPathComponent("demo.json").path)
        let config = #"""
        {"listen":"127.0.0.1:0","state_dir":"\#(stateDirectory)","providers_dir":"providers",
         "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light",
         "scenarios":\#(scenarios),"limits":{"shutdown_grace_seconds":1}\#(extraConfig)}
        """#
        let path = dir.appendingPathComponent("skillgate.json").path
        try config.writeAtomically(toFile: path)
        logPath = dir.appendingPathComponent("requests.log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        // A nil `start` runs limit windows on the real clock (several instances reading each other's spend).
        let clock = ManualWallClock(start ?? Date())
        self.clock = clock
        let realClock = start == nil
        let now: @Sendable () -> Date = { realClock ? Date() : clock.now }
        server = try GatewayServer(config: try GatewayConfig.load(path: path), logFD: open(logPath, O_WRONLY | O_APPEND), now: now)
        if let existingToken {
            token = existingToken
        } else {
            token = try server.services.tokens.create(name: "team-app", limits: tokenLimits).token
        }
        try server.services.keys.set("UNUSED_PROVIDER_KEY", secret: Self.providerKey)
        try server.start()
    }

    /// Moves the limit windows' clock.
    func advance(_ seconds: Double) { clock.advance(seconds) }

    func post(_ path: String, _ body: String, token: String? = nil) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(method: "POST", url: base + path,
                                        headers: ["content-type": "application/json", "authorization": "Bearer \(token ?? self.token)"],
                                        body: Array(body.utf8)))
    }

    func get(_ path: String, port: Int? = nil) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port ?? server.boundPort)\(path)",
                                        headers: ["authorization": "Bearer \(token)"]))
    }

    /// The ledger's rows so far (written now), straight from the state store.
    func ledger(by: UsageGrouping = .token) async throws -> [UsageReportRow] {
        await server.flushLedger()
        return try server.services.tokens.store.usageReport(since: Date(timeIntervalSince1970: 0), by: by)
    }

    /// Every ledger row (all columns that matter to tests), oldest first (SQLite only).
    func ledgerRows() async throws -> [[String: String]] {
        await server.flushLedger()
        guard let store = server.services.tokens.store as? SQLiteStateStore else { return [] }
        return try store.withConnection { db in
            try db.statement("SELECT kind, call_index, token_name, surface, scenario, model, input_tokens, output_tokens, cost_microdollars, outcome, status, stream, attempts, token_id FROM usage_records ORDER BY id").rows { r in
                var row: [String: String] = [:]
                for (i, name) in ["kind", "call_index", "token_name", "surface", "scenario", "model", "input_tokens", "output_tokens", "cost_microdollars",
                                  "outcome", "status", "stream", "attempts", "token_id"].enumerated() {
                    row[name] = r.optionalText(Int32(i)) ?? ""
                }
                return row
            }
        }
    }

    /// The state database's bytes (for the secrecy checks).
    func databaseBytes() async -> String {
        await server.flushLedger()
        let state = dir.appendingPathComponent("state")
        let files = ["state.sqlite", "state.sqlite-wal"].compactMap { try? Data(contentsOf: state.appendingPathComponent($0)) }
        return files.map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    func logLines() async -> [JSONValue] {
        await server.flushLog()
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }.filter { $0["request_id"] != nil }
    }

    func stop() async {
        await server.shutdown()
        http.shutdown()
        try? FileManager.default.removeItem(at: dir)
    }
}
