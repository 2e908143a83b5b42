import SkillGateChat
import SkillGateClient
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
            Events.started(),
            Events.skillStarted("c1", "current_time", ["timezone": "UTC"]),
            Events.skillFinished("c1", "current_time", ok: true, ms: 3, "07:55 UTC"),
            Events.text("The time is "), Events.text("07:55."),
        ])
        #expect(out == "⚙ current_time {\"timezone\":\"UTC\"} … ✓ 3 ms\nThe time is 07:55.")
    }

    @Test func failedSkillShowsCrossAndSummary() {
        let out = render([
            Events.skillStarted("c1", "http_get", ["url": "http://10.0.0.1/"]),
            Events.skillFinished("c1", "http_get", ok: false, ms: 12, "private address refused"),
        ])
        #expect(out == "⚙ http_get {\"url\":\"http://10.0.0.1/\"} … ✗ 12 ms — private address refused\n")
    }

    @Test func skillAfterTextStartsOnItsOwnLine() {
        let out = render([
            Events.text("Let me check."),
            Events.skillStarted("c1", "calculator", ["expression": "2*21"]),
            Events.skillFinished("c1", "calculator", ok: true, ms: 0, "42"),
            Events.text("It is 42."),
        ])
        #expect(out == "Let me check.\n⚙ calculator {\"expression\":\"2*21\"} … ✓ 0 ms\nIt is 42.")
    }

    @Test func parallelSkillsEachGetAResult() {
        let out = render([
            Events.skillStarted("a", "current_time", [:]),
            Events.skillStarted("b", "calculator", ["expression": "1+1"]),
            Events.skillFinished("b", "calculator", ok: true, ms: 1),
            Events.skillFinished("a", "current_time", ok: true, ms: 5),
        ])
        #expect(out == "⚙ current_time {} …\n⚙ calculator {\"expression\":\"1+1\"} … ✓ 1 ms\n⚙ current_time … ✓ 5 ms\n")
    }

    @Test func argumentsAreShownSortedByKey() {
        let out = render([Events.skillStarted("c", "book", ["to": "Bern", "from": "Zurich", "adults": 2])])
        #expect(out == "⚙ book {\"adults\":2,\"from\":\"Zurich\",\"to\":\"Bern\"} …")
    }

    @Test func longArgumentsAreCut() {
        let long = String(repeating: "x", count: 500)
        let out = render([Events.skillStarted("c", "notes_save", ["text": .string(long)])])
        #expect(out.count < 150)
        #expect(out.hasSuffix("… …"))
    }

    @Test func clientToolCallSaysTheCLIHasNoClientTools() {
        let out = render([Events.text("Opening"), Events.toolCall("open_map", ["q": "Bern"])])
        #expect(out == "Opening\n⇢ the model asked the client to run open_map {\"q\":\"Bern\"}; skillgate chat has no client tools, so it was not run\n")
        let confirm = render([Events.toolCall("notes_delete", [:], confirm: true)])
        #expect(confirm.contains("needs your confirmation"))
    }

    @Test func completedShowsModelTokensAndCost() {
        let out = render([
            Events.route("demo/demo-light"),
            Events.text("Hello"),
            Events.completed(input: 12, output: 5, cost: 0.0012),
        ])
        #expect(out == "Hello\n  [demo/demo-light · 12 in / 5 out tokens · $0.001200]\n")
        let toolStop = render([Events.completed("tool_calls")])
        #expect(toolStop == "  [0 in / 0 out tokens · $0 · finish: tool_calls]\n")
        let capped = render([Events.completed("max_iterations", message: "stopped after 5 iterations")])
        #expect(capped == "  [0 in / 0 out tokens · $0 · finish: max_iterations · stopped after 5 iterations]\n")
    }

    @Test func failedRunShowsTheError() {
        let out = render([Events.text("Partial"), Events.failed("upstream_error", "all providers failed")])
        #expect(out == "Partial\n✗ all providers failed (upstream_error)\n")
    }

    @Test func stoppedAndBrokenAnswersEndOnTheirOwnLine() {
        #expect(render([Events.text("Once upon")], ending: .stopped) == "Once upon\n⏹ stopped\n")
        #expect(render([], ending: .transportError("HTTP 401: invalid token")) == "✗ HTTP 401: invalid token\n")
        #expect(render([Events.text("x\n")], ending: .completed) == "x\n")
    }

    @Test(arguments: [(0.0, "$0"), (0.5, "$0.5000"), (0.000042, "$0.000042"), (12.3456789, "$12.3457")])
    func costFormatting(_ usd: Double, _ text: String) {
        #expect(ChatFormat.cost(usd) == text)
    }
}
