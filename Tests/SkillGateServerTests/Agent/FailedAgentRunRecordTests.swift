import Foundation
import Synchronization
import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

/// A run that fails after a server-side skill ran still records that it ran: the skill's side effects happened (a
/// webhook called, a note saved), and the log line, the traffic tail and the ledger are the audit trail. Before, only
/// a run that completed copied its skills into the record.
@Suite(.serialized) struct FailedAgentRunRecordTests {
    @Test func aRunThatFailsAfterASkillRanStillRecordsIt() async throws {
        let revoke = Mutex<(@Sendable () -> Void)?>(nil)
        // The skill revokes the caller's token while it runs, so the next step fails the run.
        let skill = TestSkill("revoker") { _ in
            revoke.withLock { $0 }?()
            return SkillResult(text: "done")
        }
        let h = try AgentGatewayHarness(skills: [skill], upstream: AgentUpstream(tool: "revoker"))
        let tokens = h.gateway.services.tokens
        revoke.withLock { $0 = { _ = try? tokens.revoke(name: "agent-test") } }
        let r = try await h.post("/v1/agent", ["messages": [["role": "user", "content": "go"]]])
        await h.stop()
        #expect(r.body.contains("event: run.failed"), "\(r.body.suffix(300))")
        #expect(skill.runs.count == 1)
        let log = try #require(h.logLines().last)
        #expect(log["skills_run"]?.arrayValue?.compactMap(\.stringValue) == ["revoker"], "\(log)")
    }
}
