import SkillGateChat
import SkillGateCore
import Testing

@Suite("ChatRenderer")
struct ChatRendererTests {
    func render(_ events: [AgentEvent], ending: TurnEnding? = nil) -> String {
        var renderer = ChatRenderer()
        var out = events.map { renderer.render($0) }.joined()
        if let ending { out += renderer.render(ending) }
        return out
    }

    @Test func oneLinePerSkillWithArgumentsTickAndTime() {
        let out = render([
            .runStarted(runID: "r", scenario: nil, model: nil),
            .skillStarted(callID: "c1", skill: "current_time", arguments: ["timezone": "UTC"]),
            .skillFinished(callID: "c1", skill: "current_time", ok: true, durationMs: 3, summary: "07:55 UTC"),
            .textDelta("The time is "), .textDelta("07:55."),
        ])
        #expect(out == "⚙ current_time {\"timezone\":\"UTC\"} … ✓ 3 ms\nThe time is 07:55.")
    }

    @Test func failedSkillShowsCrossAndSummary() {
        let out = render([
            .skillStarted(callID: "c1", skill: "http_get", arguments: ["url": "http://10.0.0.1/"]),
            .skillFinished(callID: "c1", skill: "http_get", ok: false, durationMs: 12, summary: "private address refused"),
        ])
        #expect(out == "⚙ http_get {\"url\":\"http://10.0.0.1/\"} … ✗ 12 ms — private address refused\n")
    }

    @Test func skillAfterTextStartsOnItsOwnLine() {
        let out = render([
            .textDelta("Let me check."),
            .skillStarted(callID: "c1", skill: "calculator", arguments: ["expression": "2*21"]),
            .skillFinished(callID: "c1", skill: "calculator", ok: true, durationMs: 0, summary: "42"),
            .textDelta("It is 42."),
        ])
        #expect(out == "Let me check.\n⚙ calculator {\"expression\":\"2*21\"} … ✓ 0 ms\nIt is 42.")
    }

    @Test func parallelSkillsEachGetAResult() {
        let out = render([
            .skillStarted(callID: "a", skill: "current_time", arguments: [:]),
            .skillStarted(callID: "b", skill: "calculator", arguments: ["expression": "1+1"]),
            .skillFinished(callID: "b", skill: "calculator", ok: true, durationMs: 1, summary: nil),
            .skillFinished(callID: "a", skill: "current_time", ok: true, durationMs: 5, summary: nil),
        ])
        #expect(out == "⚙ current_time {} …\n⚙ calculator {\"expression\":\"1+1\"} … ✓ 1 ms\n⚙ current_time … ✓ 5 ms\n")
    }

    @Test func longArgumentsAreCut() {
        let long = String(repeating: "x", count: 500)
        let out = render([.skillStarted(callID: "c", skill: "notes_save", arguments: ["text": .string(long)])])
        #expect(out.count < 150)
        #expect(out.hasSuffix("… …"))
    }

    @Test func clientToolCallSaysTheCLIHasNoClientTools() {
        let out = render([.textDelta("Opening"), .toolCall(callID: "c", name: "open_map", arguments: ["q": "Bern"], requiresConfirmation: false)])
        #expect(out == "Opening\n⇢ the model asked the client to run open_map {\"q\":\"Bern\"}; skillgate chat has no client tools, so it was not run\n")
        let confirm = render([.toolCall(callID: "c", name: "notes_delete", arguments: [:], requiresConfirmation: true)])
        #expect(confirm.contains("needs your confirmation"))
    }

    @Test func completedShowsModelTokensAndCost() {
        let out = render([
            .routeSelected(provider: "demo", model: "demo/demo-light", route: nil, iteration: 1),
            .textDelta("Hello"),
            .runCompleted(finishReason: "stop", iterations: 1, usage: AgentUsage(inputTokens: 12, outputTokens: 5), costUSD: 0.0012),
        ])
        #expect(out == "Hello\n  [demo/demo-light · 12 in / 5 out tokens · $0.001200]\n")
        let toolStop = render([.runCompleted(finishReason: "tool_calls", iterations: 1, usage: nil, costUSD: 0)])
        #expect(toolStop == "  [$0 · finish: tool_calls]\n")
        let capped = render([.runCompleted(finishReason: "max_iterations", iterations: 5, usage: nil, costUSD: nil,
                                           message: "stopped after 5 iterations")])
        #expect(capped == "  [finish: max_iterations · stopped after 5 iterations]\n")
    }

    @Test func failedRunShowsTheError() {
        let out = render([.textDelta("Partial"), .runFailed(type: "upstream_error", message: "all providers failed")])
        #expect(out == "Partial\n✗ all providers failed (upstream_error)\n")
    }

    @Test func stoppedAndBrokenAnswersEndOnTheirOwnLine() {
        #expect(render([.textDelta("Once upon")], ending: .stopped) == "Once upon\n⏹ stopped\n")
        #expect(render([], ending: .transportError("HTTP 401: invalid token")) == "✗ HTTP 401: invalid token\n")
        #expect(render([.textDelta("x\n")], ending: .completed) == "x\n")
    }

    @Test func unknownEventsAreIgnoredAndMalformedOnesWarn() {
        #expect(render([.unknown(name: "run.later")]) == "")
        #expect(render([.malformed(name: "text.delta", reason: "bad")]) == "! ignored an unreadable text.delta event: bad\n")
    }

    @Test(arguments: [(0.0, "$0"), (0.5, "$0.5000"), (0.000042, "$0.000042"), (12.3456789, "$12.3457")])
    func costFormatting(_ usd: Double, _ text: String) {
        #expect(ChatFormat.cost(usd) == text)
    }
}
