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
        // The skill revokes the caller's token while it runs, so the next step fails the run.
        let (h, skill) = try AgentGatewayHarness.revokingMidRun()
        let r = try await h.post("/v1/agent", ["messages": [["role": "user", "content": "go"]]])
        await h.stop()
        #expect(r.body.contains("event: run.failed"), "\(r.body.suffix(300))")
        #expect(skill.runs.count == 1)
        let log = try #require(await h.logLines().last)
        #expect(log["skills_run"]?.arrayValue?.compactMap(\.stringValue) == ["revoker"], "\(log)")
    }
}
