import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateSkills
@testable import SkillGateServer

@Suite(.serialized) struct AgentGatewayTests {
    static let question: JSONValue = ["messages": [["role": "user", "content": "what time is it?"]]]

    static func openAI(stream: Bool) -> JSONValue {
        ["model": "auto", "stream": .bool(stream), "messages": [["role": "user", "content": "what time is it?"]]]
    }

    @Test func agentEndpointStreamsTheContractEvents() async throws {
        let h = try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "07:55 UTC")], upstream: AgentUpstream(tool: "clock"))
        let r = try await h.post("/v1/agent", Self.question)
        await h.stop()
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "text/event-stream")
        let events = AgentGatewayHarness.events(r.body)
        let names = events.map(\.name)
        #expect(names.first == "run.started")
        #expect(names.last == "run.completed")
        let compact = names.reduce(into: [String]()) { out, n in if out.last != n || n != "text.delta" { out.append(n) } }
        #expect(compact == ["run.started", "route.selected", "skill.started", "skill.finished", "route.selected", "text.delta", "run.completed"])
        let d = Dictionary(events.map { ($0.name, $0.data) }, uniquingKeysWith: { a, _ in a })
        #expect(d["run.started"]?["run_id"]?.stringValue?.hasPrefix("run_") == true)
        #expect(d["run.started"]?["scenario"] == "chat")
        #expect(d["run.started"]?["model"] == "auto")
        #expect(d["route.selected"]?["provider"] == "up")
        #expect(d["route.selected"]?["model"] == "up/light-native")
        #expect(d["route.selected"]?["route"]?.stringValue != nil)
        #expect(d["route.selected"]?["iteration"] == 1)
        #expect(d["skill.started"]?["skill"] == "clock")
        #expect(d["skill.started"]?["arguments"] == .object([:]))
        #expect(d["skill.started"]?["call_id"] == d["skill.finished"]?["call_id"])
        #expect(d["skill.finished"]?["ok"] == true)
        #expect(d["skill.finished"]?["summary"] == "07:55 UTC")
        #expect(d["skill.finished"]?["duration_ms"]?.intValue != nil)
        #expect(d["skill.finished"]?["payload"] == ["text": "07:55 UTC"])
        let text = events.filter { $0.name == "text.delta" }.compactMap { $0.data["text"]?.stringValue }.joined()
        #expect(text == "Result: 07:55 UTC")
        let done = try #require(d["run.completed"])
        #expect(done["finish_reason"] == "stop")
        #expect(done["iterations"] == 2)
        // The double sends no usage chunk when streaming; the keys are there all the same.
        #expect(done["usage"]?["input_tokens"]?.intValue != nil)
        #expect(done["usage"]?["output_tokens"]?.intValue != nil)
        #expect(done["cost_usd"]?.doubleValue != nil)
        let log = try #require(await h.logLines().last)
        #expect(log["path"] == "/v1/agent")
        #expect(log["agent_iterations"] == 2)
        #expect(log["skills_run"] == ["clock"])
    }

    @Test func agentEndpointHandsBackAClientToolAndFailsBeforeTheStreamAsJSON() async throws {
        let h = try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "now")], upstream: AgentUpstream(tool: "open_map"))
        let body: JSONValue = ["messages": [["role": "user", "content": "what time is it?"]],
                               "tools": [["type": "function", "function": ["name": "open_map", "parameters": ["type": "object", "properties": [:]]]]]]
        let r = try await h.post("/v1/agent", body)
        let unauthorized = try await h.post("/v1/agent", Self.question, token: "sk-wrong")
        await h.stop()
        let events = AgentGatewayHarness.events(r.body)
        #expect(events.map(\.name) == ["run.started", "route.selected", "tool.call", "run.completed"])
        #expect(events[2].data["name"] == "open_map")
        #expect(events[2].data["requires_confirmation"] == false)
        #expect(events[3].data["finish_reason"] == "tool_calls")
        #expect(unauthorized.status == 401)
        #expect(try JSONValue.parse(unauthorized.body)["error"]?["type"] == "authentication_error")
    }

    @Test func openAIJSONResponseKeepsItsShape() async throws {
        let h = try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "07:55 UTC")], upstream: AgentUpstream(tool: "clock"))
        let r = try await h.post("/v1/chat/completions", Self.openAI(stream: false))
        await h.stop()
        #expect(r.status == 200)
        let json = try JSONValue.parse(r.body)
        #expect(json["object"] == "chat.completion")
        #expect(json["choices"]?.arrayValue?.count == 1)
        #expect(json["choices"]?.arrayValue?[0]["message"]?["role"] == "assistant")
        #expect(json["choices"]?.arrayValue?[0]["message"]?["content"] == "Result: 07:55 UTC")
        #expect(json["choices"]?.arrayValue?[0]["message"]?["tool_calls"] == nil)
        #expect(json["choices"]?.arrayValue?[0]["finish_reason"] == "stop")
        #expect(json["usage"]?["prompt_tokens"] == 10)  // summed over both model calls
        #expect(h.upstream.requests.count == 2)
        #expect(r.headers["x-skillgate-skills"] == "visible=clock")
        let log = try #require(await h.logLines().last)
        #expect(log["surface"] == "openai")
        #expect(log["agent_iterations"] == 2)
        #expect(log["skills_run"] == ["clock"])
        #expect(log["skills_server"] == ["clock"])
        #expect(log["input_tokens"] == 10)
    }

    @Test func openAIStreamAddsOnlyComments() async throws {
        let h = try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "07:55 UTC")], upstream: AgentUpstream(tool: "clock"))
        let r = try await h.post("/v1/chat/completions", Self.openAI(stream: true))
        await h.stop()
        #expect(r.status == 200)
        let lines = r.body.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix(":") || $0.hasPrefix("data: ") })
        let comments = lines.filter { $0.hasPrefix(":") }
        #expect(comments.count == 1)
        #expect(comments.first?.hasPrefix(": skill clock ok ") == true)
        let data = lines.filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        #expect(data.last == "[DONE]")
        let chunks = try data.dropLast().map { try JSONValue.parse($0) }
        #expect(chunks.allSatisfy { $0["object"] == "chat.completion.chunk" })
        let text = chunks.compactMap { $0["choices"]?.arrayValue?[0]["delta"]?["content"]?.stringValue }.joined()
        #expect(text == "Result: 07:55 UTC")
        #expect(chunks.contains { $0["choices"]?.arrayValue?[0]["finish_reason"] == "stop" })
    }

    @Test func anthropicResponseKeepsItsShape() async throws {
        let h = try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "07:55 UTC")], upstream: AgentUpstream(tool: "clock"))
        let body: JSONValue = ["model": "auto", "max_tokens": 100, "messages": [["role": "user", "content": "time?"]]]
        let r = try await h.post("/v1/messages", body)
        await h.stop()
        let json = try JSONValue.parse(r.body)
        #expect(json["type"] == "message")
        #expect(json["content"]?.arrayValue?[0]["type"] == "text")
        #expect(json["content"]?.arrayValue?[0]["text"] == "Result: 07:55 UTC")
        #expect(json["stop_reason"] == "end_turn")
    }

    @Test func clientDisconnectCancelsTheSkill() async throws {
        let slow = TestSkill.slow("clock")
        let h = try AgentGatewayHarness(skills: [slow], upstream: AgentUpstream(tool: "clock"))
        let request = h.detachedPost("/v1/agent", Self.question)
        try await Self.waitUntil { !slow.runs.isEmpty }
        request.cancel()
        _ = await request.result
        try await Self.waitUntil { slow.sawCancellation }
        await h.stop()
        #expect(slow.sawCancellation)
    }

    @Test func clientDisconnectCancelsTheUpstreamCall() async throws {
        let upstream = AgentUpstream(tool: "clock", hang: true)
        let h = try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "now")], upstream: upstream)
        let request = h.detachedPost("/v1/agent", Self.question)
        try await Self.waitUntil { !upstream.requests.isEmpty }
        request.cancel()
        _ = await request.result
        try await Self.waitUntil { upstream.sawDisconnect }
        await h.stop()
        #expect(upstream.sawDisconnect)
    }

    @Test func upstreamFailureAfterTheStartIsRunFailed() async throws {
        let h = try AgentGatewayHarness(skills: [TestSkill.fixed("clock", "now")], upstream: AgentUpstream(tool: "clock", failStatus: 400))
        let r = try await h.post("/v1/agent", Self.question)
        let wrongMethod = try await h.client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(h.gateway.boundPort)/v1/agent",
                                                              headers: ["authorization": "Bearer \(h.token)"]))
        await h.stop()
        let events = AgentGatewayHarness.events(r.body)
        #expect(events.map(\.name) == ["run.started", "run.failed"])
        #expect(events.last?.data["error"]?["type"]?.stringValue?.isEmpty == false)
        #expect(events.last?.data["error"]?["message"]?.stringValue?.contains("refused") == true)
        #expect(wrongMethod.status == 405)
    }

    /// Polls `condition` for up to 10 s (the tests assert on it afterwards).
    static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<2000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
    }
}
