import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateSkills
@testable import SkillGateServer

/// A model's refusal in the agent's own event stream (decision 0114): the contract has no refusal event, so the
/// refusal text comes as `text.delta`, as a whole answer's text would, and `run.completed` says `refusal`.
@Suite(.serialized) struct AgentRefusalTests {
    @Test func aStreamedRefusalIsTextAndTheRunFinishesWithRefusal() async throws {
        let upstream = AgentUpstream(tool: "clock", recordedStream: OpenAIRecordings.bytes("test_parse_pydantic_model_refusal.sse"))
        let h = try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "07:55 UTC")], upstream: upstream)
        let r = try await h.post("/v1/agent", AgentGatewayTests.question)
        await h.stop()
        #expect(r.status == 200)
        let events = AgentGatewayHarness.events(r.body)
        let text = events.filter { $0.name == "text.delta" }.compactMap { $0.data["text"]?.stringValue }.joined()
        #expect(text == "I'm sorry, I can't assist with that request.", "\(events.map(\.name))")
        #expect(events.last?.name == "run.completed" && events.last?.data["finish_reason"] == "refusal", "\(events.last.map { "\($0.data)" } ?? "")")
    }
}
