import Foundation
import Testing
import SkillGateCore
@testable import SkillGateServer

/// Server-side skills through `POST /v1/responses`: the agent loop runs them and the client gets
/// the final answer as a Responses object (or stream), as on the chat surfaces.
@Suite struct ResponsesAgentTests {
    @Test func theFinalAnswerAfterTheSkillRanIsTheResponse() async throws {
        let h = try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "07:55 UTC")], upstream: AgentUpstream(tool: "clock"))
        let r = try await h.post("/v1/responses", ["model": "auto", "input": "what time is it?"])
        let s = try await h.post("/v1/responses", ["model": "auto", "input": "what time is it?", "stream": true])
        await h.stop()
        #expect(r.status == 200)
        let json = try JSONValue.parse(r.body)
        #expect(json["object"] == "response" && json["status"] == "completed")
        #expect(json["output"]?.arrayValue?.map { $0["type"] } == ["message"])
        #expect(json["output"]?.arrayValue?.first?["content"]?.arrayValue?.first?["text"] == "Result: 07:55 UTC")
        #expect(json["usage"]?["input_tokens"] == 10)  // both model calls
        #expect(h.upstream.requests.count == 4)
        #expect(s.status == 200)
        let lines = s.body.split(separator: "\n")
        #expect(lines.first?.hasPrefix(": skill clock ok ") == true)
        let events = try lines.filter { $0.hasPrefix("data: ") }.map { try JSONValue.parse(String($0.dropFirst(6))) }
        #expect(events.last?["type"] == "response.completed")
        #expect(events.filter { $0["type"] == "response.output_text.delta" }.compactMap { $0["delta"]?.stringValue }.joined() == "Result: 07:55 UTC")
    }
}
