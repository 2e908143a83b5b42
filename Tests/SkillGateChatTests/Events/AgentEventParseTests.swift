import SkillGateChat
import SkillGateCore
import SkillGateHTTP
import Testing

@Suite("AgentEvent parsing")
struct AgentEventParseTests {
    static let cases: [(String, String, AgentEvent)] = [
        ("run.started", #"{"run_id":"run_1","scenario":"chat","model":"auto"}"#,
         .runStarted(runID: "run_1", scenario: "chat", model: "auto")),
        ("route.selected", #"{"provider":"demo","model":"demo/demo-light","route":"tier=light; by=score","iteration":1}"#,
         .routeSelected(provider: "demo", model: "demo/demo-light", route: "tier=light; by=score", iteration: 1)),
        ("skill.started", #"{"call_id":"call_1","skill":"current_time","arguments":{"timezone":"UTC"},"iteration":1}"#,
         .skillStarted(callID: "call_1", skill: "current_time", arguments: ["timezone": "UTC"])),
        ("skill.finished", #"{"call_id":"call_1","skill":"current_time","ok":true,"duration_ms":3,"summary":"07:55 UTC","payload":{"x":1}}"#,
         .skillFinished(callID: "call_1", skill: "current_time", ok: true, durationMs: 3, summary: "07:55 UTC")),
        ("skill.finished", #"{"call_id":"c","skill":"http_get","ok":false,"duration_ms":12.4,"summary":"host not allowed"}"#,
         .skillFinished(callID: "c", skill: "http_get", ok: false, durationMs: 12, summary: "host not allowed")),
        ("text.delta", #"{"text":"The time is "}"#, .textDelta("The time is ")),
        ("tool.call", #"{"call_id":"call_2","name":"open_map","arguments":{"q":"Bern"},"requires_confirmation":false}"#,
         .toolCall(callID: "call_2", name: "open_map", arguments: ["q": "Bern"], requiresConfirmation: false)),
        ("run.completed", #"{"finish_reason":"stop","iterations":2,"usage":{"input_tokens":120,"output_tokens":45},"cost_usd":0.0012}"#,
         .runCompleted(finishReason: "stop", iterations: 2, usage: AgentUsage(inputTokens: 120, outputTokens: 45), costUSD: 0.0012)),
        ("run.completed", #"{"finish_reason":"max_iterations","iterations":5,"usage":{"input_tokens":1,"output_tokens":2},"cost_usd":0,"message":"the run stopped after 5 iterations"}"#,
         .runCompleted(finishReason: "max_iterations", iterations: 5, usage: AgentUsage(inputTokens: 1, outputTokens: 2), costUSD: 0,
                       message: "the run stopped after 5 iterations")),
        ("run.failed", #"{"error":{"type":"upstream_error","message":"all providers failed"}}"#,
         .runFailed(type: "upstream_error", message: "all providers failed")),
        ("run.later", #"{}"#, .unknown(name: "run.later")),
        ("text.delta", #"{"txt":"x"}"#, .malformed(name: "text.delta", reason: "the field \"text\" is missing")),
    ]

    @Test(arguments: cases.indices)
    func parsesEachEventOfTheContract(_ index: Int) {
        let (name, data, expected) = Self.cases[index]
        #expect(AgentEvent.parse(SSEEvent(event: name, data: data)) == expected)
    }

    @Test func dataThatIsNotJSONIsMalformedNotFatal() {
        guard case .malformed(let name, let reason) = AgentEvent.parse(SSEEvent(event: "skill.started", data: "{oops")) else {
            Issue.record("expected .malformed"); return
        }
        #expect(name == "skill.started")
        #expect(reason.contains("invalid JSON"))
    }

    @Test func onlyTheRunEndingEventsEndTheRun() {
        #expect(AgentEvent.runFailed(type: nil, message: "x").endsRun)
        #expect(AgentEvent.runCompleted(finishReason: nil, iterations: nil, usage: nil, costUSD: nil).endsRun)
        #expect(!AgentEvent.textDelta("x").endsRun)
    }

    @Test(arguments: [1, 7, 4096])
    func sequenceDecodesABodySplitAnywhere(chunkSize: Int) async throws {
        var bytes: [UInt8] = Array(": keep-alive\n\n".utf8)
        bytes += SSEEncoder.encodeJSON(["text": "Hi "], event: "text.delta")
        bytes += SSEEncoder.encodeJSON(["skill": "calc", "call_id": "c1", "arguments": ["e": "1+1"]], event: "skill.started")
        bytes += Array("event: text.delta\ndata: {\"text\":\"ünï\"}".utf8)  // last event without its blank line
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map { Array(bytes[$0..<min($0 + chunkSize, bytes.count)]) }
        let body = AsyncThrowingStream<[UInt8], any Error> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        var events: [AgentEvent] = []
        for try await event in AgentEventSequence(body: body) { events.append(event) }
        #expect(events == [.textDelta("Hi "), .skillStarted(callID: "c1", skill: "calc", arguments: ["e": "1+1"]), .textDelta("ünï")])
    }
}
