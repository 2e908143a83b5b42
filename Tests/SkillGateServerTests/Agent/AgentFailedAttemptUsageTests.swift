import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// A failed attempt inside one of an agent run's model calls (a prompt-tools model's malformed call, tried again) was
/// paid for: the run's log line, its ledger rows and its budgets count its tokens, as on the chat surfaces (decision
/// 0120). The upstream plays a text-only model: its first answer is a call that cannot be read, then it calls `clock`,
/// then answers with the result; every whole answer reports 5 prompt and 3 completion tokens.
@Suite(.serialized) struct AgentFailedAttemptUsageTests {
    static func harness() throws -> AgentGatewayHarness {
        try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "07:55 UTC")],
                                upstream: AgentUpstream(tool: "clock", promptTools: true, malformedFirst: 1), lightTools: "prompt")
    }

    @Test func aRunsFailedAttemptIsCountedInItsLogLineAndLedgerRows() async throws {
        let h = try Self.harness()
        let r = try await h.post("/v1/chat/completions", AgentGatewayTests.openAI(stream: false))
        h.gateway.flushLedger()
        let byToken = try h.gateway.services.tokens.store.usageReport(since: Date(timeIntervalSince1970: 0), by: .token)
        let byModel = try h.gateway.services.tokens.store.usageReport(since: Date(timeIntervalSince1970: 0), by: .model)
        let line = try #require(h.logLines().last)
        await h.stop()
        #expect(r.status == 200, "\(r.body)")
        #expect(h.upstream.requests.count == 3, "the malformed call was tried again, then the run went on")
        #expect(line["agent_iterations"] == 2)
        #expect(line["attempts"]?.arrayValue?.first == "up/light-native: 502 upstream_error (malformed_tool_call)", "\(line)")
        // The answers' 10 prompt tokens are the run's usage (what the client reads); the failed attempt's 5 beside them.
        #expect(line["input_tokens"] == 10 && line["unusable_input_tokens"] == 5 && line["unusable_output_tokens"] == 3, "\(line)")
        #expect(byToken.first?.inputTokens == 15 && byToken.first?.outputTokens == 9, "the run row counts all three answers: \(byToken)")
        #expect(byModel.first { $0.key == "up/light-native" }?.inputTokens == 15, "the call rows too: \(byModel)")
        #expect(try JSONValue.parse(r.body)["usage"]?["prompt_tokens"] == 10, "the client reads its answers' usage, as on chat")
    }

    @Test func aStreamedRunsFailedAttemptIsCountedAndMarkedEstimated() async throws {
        let h = try Self.harness()
        let r = try await h.post("/v1/agent", AgentGatewayTests.question)
        h.gateway.flushLedger()
        let byToken = try h.gateway.services.tokens.store.usageReport(since: Date(timeIntervalSince1970: 0), by: .token)
        let line = try #require(h.logLines().last)
        await h.stop()
        #expect(r.status == 200 && r.body.contains("run.completed"), "\(r.body)")
        #expect(h.upstream.requests.count == 3)
        // The double's streams report no usage: the failed attempt's is estimated like the answers' (decision 0104).
        let unusable = line["unusable_input_tokens"]?.intValue ?? 0
        #expect(unusable > 0 && line["usage_estimated"] == true, "\(line)")
        let answers = line["input_tokens"]?.intValue ?? 0
        #expect(byToken.first?.inputTokens == answers + unusable, "\(byToken) \(line)")
    }
}
