import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
@testable import SkillGateServer
import SkillGateTestSupport

/// An upstream reporting 4.6e18 tokens an answer (a broken provider or proxy) stopped the gateway: priced, the cost
/// left 64 bits as microdollars; added to a tokens-per-minute window, the second answer overflowed it; and three answers
/// in the ledger made every usage report fail with SQLite's integer overflow (decision 0096). The counts are now held at
/// `Usage.maximumCount` where they are read, and the sums beyond them saturate.
@Suite struct AbsurdUsageGatewayTests {
    /// The recorded OpenAI answer (`Tests/Fixtures/openai/openai-text.json`) with its counts changed to `count`.
    static func answer(count: String) -> UpstreamDouble.Reply {
        let text = String(decoding: OpenAIRecordings.bytes("openai-text.json"), as: UTF8.self)
            .replacingOccurrences(of: #""prompt_tokens": 16"#, with: #""prompt_tokens": \#(count)"#)
            .replacingOccurrences(of: #""completion_tokens": 363"#, with: #""completion_tokens": \#(count)"#)
        return .json(status: 200, body: Array(text.utf8), headers: [:])
    }

    @Test(arguments: ["4611686018427387903", "9223372036854775807"])
    func hugeCountsArePricedCountedAndReportedWithoutStoppingTheGateway(_ count: String) async throws {
        let upstream = try UpstreamDouble([Self.answer(count: count)])
        let directory = NSTemporaryDirectory() + "skillgate-usage-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
        let provider = #"{"id":"oai","display_name":"oai","wire_format":"openai-chat","base_url":"\#(upstream.baseURL)","auth":"bearer","key_name":"OAI_KEY","models":[{"id":"gpt-test","tier":"light","context_window":8000,"tools":"native","price":{"input_per_mtok":1000.0,"output_per_mtok":1000.0}}]}"#
        try provider.writeAtomically(toFile: directory + "/providers/oai.json")
        let config = #"""
        {"listen":"127.0.0.1:0","state_dir":"state","providers_dir":"providers","tiers":{"light":["oai/gpt-test"]},"default_model":"light",
         "token_limits":{"tokens_per_minute":9000000000000000000,"budget_usd_per_day":1000000000}}
        """#
        try config.writeAtomically(toFile: directory + "/skillgate.json")
        let loaded = try GatewayConfig.load(path: directory + "/skillgate.json")
        try KeyStore(path: loaded.keyFile).set("OAI_KEY", secret: "sk-usage-test-0123456789abcdef")
        let server = try GatewayServer(config: loaded, logFD: -1)
        let token = try server.services.tokens.create(name: "app").token
        let admin = try server.services.tokens.create(name: "ops", admin: true).token
        try server.start()
        let http = HTTPClient()
        let base = "http://127.0.0.1:\(server.boundPort)"
        func chat() async throws -> HTTPResponse {
            try await http.send(HTTPRequest(method: "POST", url: base + "/v1/chat/completions",
                                            headers: ["authorization": "Bearer \(token)", "content-type": "application/json"],
                                            body: Array(#"{"model":"light","messages":[{"role":"user","content":"hi"}]}"#.utf8)))
        }
        let first = try await chat()
        let second = try await chat()
        let third = try await chat()
        await server.flushLedger()
        let report = try await http.send(HTTPRequest(method: "GET", url: base + "/admin/api/usage?by=token&days=1",
                                                     headers: ["authorization": "Bearer \(admin)"]))
        let usage = try JSONValue.parse(first.body)["usage"]
        await server.shutdown()
        http.shutdown()
        await upstream.stop()
        try? FileManager.default.removeItem(atPath: directory)

        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
        #expect(usage?["prompt_tokens"]?.intValue == Usage.maximumCount)
        #expect(usage?["total_tokens"]?.intValue == 2 * Usage.maximumCount)
        // 2^33 tokens at $1,000 a million is $8.6 million an answer, far under both limits: every answer is served.
        #expect(second.status == 200 && third.status == 200, "\(second.status) \(third.status)")
        #expect(report.status == 200, "\(String(decoding: report.body, as: UTF8.self))")
    }
}
