import Foundation
import SkillGateAPI
import Testing

@Suite("AgentEvent on the wire")
struct AgentEventSSETests {
    /// Every event of docs/agent-api.md with the data line the gateway has always sent for it.
    static let wire: [(AgentEvent, String)] = [
        (.runStarted(.init(runId: "run_abc", scenario: "assistant", model: "auto")),
         #"{"run_id":"run_abc","scenario":"assistant","model":"auto"}"#),
        (.routeSelected(.init(provider: "demo", model: "demo/demo-light", route: "tier=light; by=scenario", iteration: 1)),
         #"{"provider":"demo","model":"demo/demo-light","route":"tier=light; by=scenario","iteration":1}"#),
        (.skillStarted(.init(callId: "call_1", skill: "calculator", arguments: ["expression": "17 * 23"], iteration: 1)),
         #"{"call_id":"call_1","skill":"calculator","arguments":{"expression":"17 * 23"},"iteration":1}"#),
        (.skillFinished(.init(callId: "call_1", skill: "calculator", ok: true, durationMs: 3, summary: "391", payload: ["result": 391])),
         #"{"call_id":"call_1","skill":"calculator","ok":true,"duration_ms":3,"summary":"391","payload":{"result":391}}"#),
        (.skillFinished(.init(callId: "c", skill: "http_get", ok: false, durationMs: 0, summary: "Invalid arguments")),
         #"{"call_id":"c","skill":"http_get","ok":false,"duration_ms":0,"summary":"Invalid arguments"}"#),
        (.textDelta(.init(text: "17 × 23 = \"391\".\n")),
         #"{"text":"17 × 23 = \"391\".\n"}"#),
        (.toolCall(.init(callId: "call_2", name: "open_map", arguments: ["q": "Bern"], requiresConfirmation: false)),
         #"{"call_id":"call_2","name":"open_map","arguments":{"q":"Bern"},"requires_confirmation":false}"#),
        (.runCompleted(.init(finishReason: "stop", iterations: 2, usage: .init(inputTokens: 120, outputTokens: 45), costUSD: 0.0012)),
         #"{"finish_reason":"stop","iterations":2,"usage":{"input_tokens":120,"output_tokens":45},"cost_usd":0.0012}"#),
        (.runCompleted(.init(finishReason: "max_iterations", iterations: 5, usage: .init(inputTokens: 1, outputTokens: 2), costUSD: 0,
                             message: "the run stopped after 5 model calls")),
         #"{"finish_reason":"max_iterations","iterations":5,"usage":{"input_tokens":1,"output_tokens":2},"cost_usd":0,"message":"the run stopped after 5 model calls"}"#),
        (.runFailed(.init(error: .init(type: "upstream_error", message: "demo: down"))),
         #"{"error":{"type":"upstream_error","message":"demo: down"}}"#),
    ]

    @Test(arguments: wire.indices)
    func encodesTheServerSentEventByteForByte(_ i: Int) throws {
        let (event, data) = Self.wire[i]
        #expect(String(decoding: event.sseBytes(), as: UTF8.self) == "event: \(event.name.rawValue)\ndata: \(data)\n\n")
    }

    @Test(arguments: wire.indices)
    func decodesWhatItEncodes(_ i: Int) throws {
        let (event, data) = Self.wire[i]
        #expect(try AgentEvent(name: event.name.rawValue, data: data) == event)
        #expect(try AgentEvent(name: event.name.rawValue, data: Data(event.dataBytes())) == event)
    }

    @Test func theNamesAreTheContractsNames() {
        #expect(AgentEvent.Name.allCases.map(\.rawValue) == [
            "run.started", "route.selected", "skill.started", "skill.finished", "text.delta", "tool.call", "run.completed", "run.failed",
        ])
        #expect(Set(Self.wire.map(\.0.name)) == Set(AgentEvent.Name.allCases))
        #expect(Self.wire.filter(\.0.endsRun).map(\.0.name) == [.runCompleted, .runCompleted, .runFailed])
    }

    @Test(arguments: [
        ("run.paused", #"{}"#, AgentEventDecodingError.unknownEvent(name: "run.paused")),
        ("text.delta", #"{"txt":"x"}"#, .malformed(name: "text.delta", reason: #"the field "text" is missing"#)),
        ("skill.started", "{oops", .malformed(name: "skill.started", reason: "the data is not valid JSON")),
        ("route.selected", #"{"provider":"p","model":"m","route":"r","iteration":"1"}"#,
         .malformed(name: "route.selected", reason: #"the field "iteration" is not a number"#)),
        ("run.completed", #"{"finish_reason":"stop","iterations":1,"usage":{"input_tokens":1},"cost_usd":0}"#,
         .malformed(name: "run.completed", reason: #"the field "usage.output_tokens" is missing"#)),
    ])
    func refusesUnknownNamesAndDataThatDoesNotFit(_ name: String, _ data: String, _ expected: AgentEventDecodingError) {
        #expect(throws: expected) { try AgentEvent(name: name, data: data) }
    }

    @Test func errorsSayWhatToDo() {
        #expect(AgentEventDecodingError.unknownEvent(name: "x").description.contains("skip it"))
        #expect(AgentEventDecodingError.malformed(name: "x", reason: "r").description.contains("same release"))
    }

    @Test func codableFormIsEventAndData() throws {
        let event = AgentEvent.textDelta(.init(text: "hi"))
        let json = String(decoding: try CompactJSONEncoder().encode(event), as: UTF8.self)
        #expect(json == #"{"event":"text.delta","data":{"text":"hi"}}"#)
        #expect(try JSONDecoder().decode(AgentEvent.self, from: Data(json.utf8)) == event)
        #expect(try JSONDecoder().decode([AgentEvent].self, from: JSONEncoder().encode(Self.wire.map(\.0))) == Self.wire.map(\.0))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AgentEvent.self, from: Data(#"{"event":"run.paused","data":{}}"#.utf8))
        }
    }
}
