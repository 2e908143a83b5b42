import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// `skillgate serve` killed (`SIGKILL`) during an agent run: the run's paid calls are in the ledger (decision 0148), and
/// the next gateway on the state directory writes the run's row from the file the run kept while it went on (decision
/// 0151), so the reports by token count what the report by model counts. Before, the run's row was never written, and
/// the reports by token, scenario and day left the run out for good.
@Suite(.serialized) struct AbandonedRunProcessTests {
    /// A config whose light tier is `upstream`'s model, priced $1,000 a million tokens, with the built-in `current_time`
    /// skill run on the server.
    static func configFile(upstreamPort: Int) throws -> (path: String, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-abandoned-\(UUID().uuidString)")
        let providers = dir.appendingPathComponent("providers")
        try FileManager.default.createDirectory(at: providers, withIntermediateDirectories: true)
        let catalog = #"""
        {"id":"up","display_name":"Upstream double","wire_format":"openai-chat","base_url":"http://127.0.0.1:\#(upstreamPort)/v1","auth":"none",
         "models":[{"id":"light-native","tier":"light","tools":"native","price":{"input_per_mtok":1000,"output_per_mtok":1000}},
                   {"id":"strong-native","tier":"strong","tools":"native"}]}
        """#
        try catalog.writeAtomically(toFile: providers.appendingPathComponent("up.json").path)
        let config = #"""
        {"listen":"127.0.0.1:0","state_dir":"state","providers_dir":"providers",
         "tiers":{"light":["up/light-native"],"strong":["up/strong-native"]},"default_model":"light",
         "skill_packs":{"builtin":{"skills":["current_time"]}},"server_skills":{"builtin":["current_time"]},
         "scenarios":{"assistant":{"skill_packs":["builtin"]}},"default_scenario":"assistant",
         "agent":{"max_iterations":30},"limits":{"shutdown_grace_seconds":2}}
        """#
        let path = dir.appendingPathComponent("skillgate.json").path
        try config.writeAtomically(toFile: path)
        return (path, dir)
    }

    static func port(in output: String) -> Int? {
        guard let range = output.range(of: #""address":"127.0.0.1:"#) else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func aRunWhoseGatewayWasKilledIsWrittenByTheNextStart() async throws {
        let upstream = AgentUpstream(tool: "current_time", callsForever: .seconds(3))
        let upstreamServer = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: upstream)
        try upstreamServer.start()
        let (config, dir) = try Self.configFile(upstreamPort: upstreamServer.boundPort)
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = try GatewayServer.openTokenService(config: GatewayConfig.load(path: config)).create(name: "app").token
        let first = try SpawnedProcess(try ServeProcessTests.binary(), ["serve", "--config", config])
        defer { first.stop() }
        #expect(await first.wait(for: "\"listening\""), "\(first.output)")
        let port = try #require(Self.port(in: first.output), "\(first.output)")
        let client = HTTPClient()
        defer { client.shutdown() }
        let body: JSONValue = ["model": "auto", "messages": [["role": "user", "content": "what time is it?"]]]
        let run = Task {
            try? await client.send(HTTPRequest(url: "http://127.0.0.1:\(port)/v1/chat/completions",
                                               headers: ["authorization": "Bearer \(token)", "content-type": "application/json"],
                                               body: body.serializedBytes()))
        }
        // Two calls paid for and their rows in the ledger (its writer is a low-priority thread: on a loaded machine a row
        // can wait), the third under way: then the kill. A row not yet written when the process dies is lost, as any
        // queued record is (decision 0151 says so); the test waits for them so that it judges the run's row alone.
        let by = ContinuousClock.now + .seconds(30)
        while upstream.requests.count < 3 && ContinuousClock.now < by { try await Task.sleep(for: .milliseconds(10)) }
        let stateDirectory = dir.appendingPathComponent("state").path
        let paidCalls: @Sendable () -> Int64 = {
            let report = try? SQLiteStateStore(stateDirectory: stateDirectory).usageReport(since: Date(timeIntervalSince1970: 0), by: .model)
            return report?.first?.costMicrodollars ?? 0
        }
        while paidCalls() < 16_000 && ContinuousClock.now < by { try await Task.sleep(for: .milliseconds(50)) }
        first.signal(SIGKILL)
        #expect(await first.waitForExit())
        _ = await run.value
        let spool = dir.appendingPathComponent("state/ledger-spool").path
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []

        let next = try SpawnedProcess(try ServeProcessTests.binary(), ["serve", "--config", config])
        defer { next.stop() }
        #expect(await next.wait(for: "\"listening\""), "\(next.output)")
        let written = ContinuousClock.now + .seconds(20)
        while !((try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []).isEmpty && ContinuousClock.now < written {
            try await Task.sleep(for: .milliseconds(50))
        }
        next.signal(SIGTERM)
        #expect(await next.waitForExit())
        await upstreamServer.shutdown(deadline: .seconds(1))

        let store = try SQLiteStateStore(stateDirectory: dir.appendingPathComponent("state").path)
        let byToken = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .token)
        let byModel = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .model)
        let tokenId = try #require(try TokenService(store: store).list().first?.id)
        // Since the start of this UTC day: read from the running totals (the limits' figures), not the rows.
        let today = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        let dayTotal = try store.usageSummary(tokenId: tokenId, since: today)
        #expect(kept.count == 1 && kept.first?.hasPrefix("ledger-spool-run-") == true, "the killed gateway left the run's file: \(kept)")
        #expect(byToken.first?.requests == 1, "the run's row was written: \(byToken)")
        #expect((byToken.first?.costMicrodollars ?? 0) > 0 && byToken.first?.costMicrodollars == byModel.first?.costMicrodollars,
                "the report by token counts the run's paid calls as the report by model does: \(byToken) \(byModel)")
        #expect(dayTotal.costMicrodollars == byModel.first?.costMicrodollars && dayTotal.requests == 1,
                "and the running totals count them and the request once: \(dayTotal)")
        #expect(next.output.contains("usage records kept at an earlier stop"), "\(next.output)")
    }
}
