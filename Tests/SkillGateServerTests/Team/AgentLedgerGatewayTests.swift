import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateSkills
import SkillGateState
@testable import SkillGateServer

/// Agent runs in the ledger and the metrics: one `call` row per model call, written as each is paid for (decision 0148),
/// then one `run` row with the sums; skill runs counted by skill and outcome; a run that fails mid-stream recorded with
/// that outcome.
@Suite(.serialized) struct AgentLedgerGatewayTests {
    static func rows(_ h: AgentGatewayHarness) async throws -> [(kind: String, index: Int, outcome: String, input: Int)] {
        await h.gateway.flushLedger()
        let store = try #require(h.gateway.services.tokens.store as? SQLiteStateStore)
        return try store.withConnection { db in
            try db.statement("SELECT kind, call_index, outcome, input_tokens FROM usage_records ORDER BY id").rows {
                ($0.text(0), Int($0.int64(1)), $0.text(2), Int($0.int64(3)))
            }
        }
    }

    @Test func anAgentRunIsARunRowAndOneRowPerModelCall() async throws {
        let skill = TestSkill("lookup") { _ in SkillResult(text: "found") }
        let h = try AgentGatewayHarness(skills: [skill], upstream: AgentUpstream(tool: "lookup"))
        let r = try await h.post("/v1/agent", ["messages": [["role": "user", "content": "look it up"]]])
        let rows = try await Self.rows(h)
        let metrics = h.gateway.services.renderMetrics()
        await h.stop()
        #expect(r.status == 200)
        #expect(rows.map(\.kind) == ["call", "call", "run"], "\(rows)")
        #expect(rows.map(\.index) == [1, 2, 0])
        #expect(rows[2].input == rows[0].input + rows[1].input, "the run row holds the sums")
        #expect(rows.allSatisfy { $0.outcome == "ok" })
        #expect(metrics.contains(#"skillgate_skill_runs_total{skill="lookup",outcome="ok"} 1"#), "\(metrics)")
    }

    @Test func aRunThatFailsMidStreamIsRecordedWithItsOutcome() async throws {
        var rows: [(kind: String, index: Int, outcome: String, input: Int)] = []
        _ = try await TokenRecheckGatewayTests.streamRevokedAfterThreeTicks("/v1/agent", ["messages": [["role": "user", "content": "count"]]],
                                                                          makeRevoke: { h in
            let tokens = h.gateway.services.tokens
            return { try tokens.revoke(name: "agent-test") }
        }, beforeStop: { h in rows = try await Self.rows(h) })
        let run = try #require(rows.first { $0.kind == "run" })
        #expect(run.outcome == "authentication", "\(rows)")
    }
}
