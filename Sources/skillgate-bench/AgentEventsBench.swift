import SkillGateAPI

/// `POST /v1/agent` events: the SSE bytes of a one-skill run (run.started, two route.selected, skill.started,
/// skill.finished with a payload, five text deltas, run.completed), written with SkillGateAPI's encoder as the gateway
/// writes them (decision 0072).
func runAgentEventsBench() async throws {
    let arguments: JSONValue = .object(["expression": .string("17 * 23")])
    let payload: JSONValue = .object(["expression": .string("17 * 23"), "result": .number(JSONNumber(391))])
    let route = "tier=light; by=score; score=0.04; reasons=context_size(+2.39),task_size(+1.17),scenario_default(-1.00)"
    var events: [AgentEvent] = [
        .runStarted(.init(runId: "run_e7f142d4bec6525e5fbee03f", scenario: "assistant", model: "auto")),
        .routeSelected(.init(provider: "mock", model: "mock/mock-model", route: route, iteration: 1)),
        .skillStarted(.init(callId: "call_1", skill: "calculator", arguments: arguments, iteration: 1)),
        .skillFinished(.init(callId: "call_1", skill: "calculator", ok: true, durationMs: 3, summary: "17 * 23 = 391", payload: payload)),
        .routeSelected(.init(provider: "mock", model: "mock/mock-model", route: route, iteration: 2)),
    ]
    for word in ["17 ", "* ", "23 ", "is ", "391."] { events.append(.textDelta(.init(text: word))) }
    events.append(.runCompleted(.init(finishReason: "stop", iterations: 2, usage: .init(inputTokens: 650, outputTokens: 30),
                                      costUSD: 0.0001155, message: nil)))
    var bytes = 0
    let perRun = measureCPUMicros(iterations: 5000) {
        bytes = events.reduce(0) { $0 + $1.sseBytes().count }
    }
    precondition(bytes > 0)
    report("the SSE bytes of a one-skill run's \(events.count) events (\(bytes) bytes)", perRun, unit: "µs CPU")
    report("  per event", perRun / Double(events.count), unit: "µs CPU")
}
