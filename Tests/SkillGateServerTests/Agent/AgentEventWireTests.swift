import Testing
import SkillGateCore
@testable import SkillGateServer

/// The loop's events become SkillGateAPI's `AgentEvent`s; these are the bytes `POST /v1/agent` sends.
@Suite struct AgentEventWireTests {
    static let cases: [(AgentEvent, String)] = [
        (.runStarted(runId: "run_1", scenario: "assistant", model: "auto"),
         #"event: run.started\#ndata: {"run_id":"run_1","scenario":"assistant","model":"auto"}"#),
        (.routeSelected(provider: "demo", model: "demo/demo-light", route: "tier=light; by=scenario", iteration: 2),
         #"event: route.selected\#ndata: {"provider":"demo","model":"demo/demo-light","route":"tier=light; by=scenario","iteration":2}"#),
        // Arguments and payloads are written with their members sorted by key, numbers as SkillGateAPI writes doubles.
        (.skillStarted(callId: "call_1", skill: "book", arguments: ["to": "Bern", "adults": 2, "ratio": .number("1.50")], iteration: 1),
         #"event: skill.started\#ndata: {"call_id":"call_1","skill":"book","arguments":{"adults":2,"ratio":1.50,"to":"Bern"},"iteration":1}"#),
        (.skillFinished(callId: "call_1", skill: "calculator", ok: true, durationMs: 3, summary: "391", payload: ["result": 391]),
         #"event: skill.finished\#ndata: {"call_id":"call_1","skill":"calculator","ok":true,"duration_ms":3,"summary":"391","payload":{"result":391}}"#),
        (.skillFinished(callId: "c", skill: "x", ok: false, durationMs: 0, summary: "no", payload: nil),
         #"event: skill.finished\#ndata: {"call_id":"c","skill":"x","ok":false,"duration_ms":0,"summary":"no"}"#),
        (.textDelta("a \"b\"\n"), #"event: text.delta\#ndata: {"text":"a \"b\"\n"}"#),
        (.toolCall(callId: "call_2", name: "open_map", arguments: ["q": "Bern"], requiresConfirmation: true),
         #"event: tool.call\#ndata: {"call_id":"call_2","name":"open_map","arguments":{"q":"Bern"},"requires_confirmation":true}"#),
        (.runCompleted(finishReason: "stop", iterations: 2, usage: Usage(inputTokens: 120, outputTokens: 45), costUSD: 0.000012345678, message: nil),
         #"event: run.completed\#ndata: {"finish_reason":"stop","iterations":2,"usage":{"input_tokens":120,"output_tokens":45},"cost_usd":1.235e-05}"#),
        (.runCompleted(finishReason: "max_iterations", iterations: 5, usage: Usage(), costUSD: 0, message: "stopped"),
         #"event: run.completed\#ndata: {"finish_reason":"max_iterations","iterations":5,"usage":{"input_tokens":0,"output_tokens":0},"cost_usd":0,"message":"stopped"}"#),
        (.runFailed(GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502, message: "down", provider: "demo")),
         #"event: run.failed\#ndata: {"error":{"type":"upstream_error","message":"demo: down"}}"#),
    ]

    @Test(arguments: cases.indices)
    func eventsAreWrittenInTheAPISchema(_ i: Int) throws {
        let (event, expected) = Self.cases[i]
        #expect(String(decoding: event.sseBytes, as: UTF8.self) == expected + "\n\n")
        #expect(expected.hasPrefix("event: \(event.name)\n"))
    }
}
