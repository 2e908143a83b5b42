import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

@Suite struct AgentLoopTests {
    static let citySchema: JSONValue = ["type": "object", "properties": ["city": ["type": "string"], "days": ["type": "integer"]], "required": ["city"]]

    @Test func multiStepToolUseSumsUsageAndCost() async throws {
        let clock = TestSkill.fixed("clock", "07:55 UTC")
        let weather = TestSkill.fixed("weather", "sunny", parameters: Self.citySchema)
        let model = ScriptedModel([.calls([("clock", "{}")]), .calls([("weather", #"{"city":"Oslo","days":"2"}"#)]), .text("Sunny at 07:55")])
        let events = EventLog()
        let outcome = try await AgentFixtures.loop([clock, weather], model: model, events: events).run(AgentFixtures.request([clock, weather]))
        #expect(outcome.response.text == "Sunny at 07:55")
        #expect(outcome.finishReason == "stop")
        #expect(outcome.iterations == 3)
        #expect(outcome.skillsRun == ["clock", "weather"])
        #expect(outcome.response.usage == Usage(inputTokens: 30, outputTokens: 15))
        #expect(abs(outcome.costUSD - 0.003) < 1e-9)
        #expect(weather.runs == [["city": "Oslo", "days": 2]])  // "2" coerced to an integer
        let third = model.requests[2].messages
        #expect(third.map(\.role) == [.user, .assistant, .tool, .assistant, .tool])
        #expect(third[2].toolResults.first?.text == "07:55 UTC")
        #expect(third[4].toolResults.first?.callId == "call_2_0")
        #expect(events.names == ["route.selected", "skill.started", "skill.finished", "route.selected", "skill.started", "skill.finished",
                                 "route.selected", "text.delta"])
    }

    @Test func parallelCallsRunConcurrently() async throws {
        let barrier = Barrier(parties: 2)
        // Each waits until the other started: run one after the other, the first would time out.
        let a = TestSkill("a", timeout: .seconds(10)) { _ in try await barrier.arriveAndWait(); return SkillResult(text: "A") }
        let b = TestSkill("b", timeout: .seconds(10)) { _ in try await barrier.arriveAndWait(); return SkillResult(text: "B") }
        let model = ScriptedModel([.calls([("a", "{}"), ("b", "{}")]), .text("done")])
        let events = EventLog()
        let outcome = try await AgentFixtures.loop([a, b], model: model, events: events).run(AgentFixtures.request([a, b]))
        #expect(outcome.response.text == "done")
        let results = AgentFixtures.results(model, request: 2)
        #expect(results.map(\.text) == ["A", "B"])  // in call order
        #expect(results.allSatisfy { !$0.isError })
        let names = events.names
        let lastStart = try #require(names.lastIndex(of: "skill.started"))
        let firstFinish = try #require(names.firstIndex(of: "skill.finished"))
        #expect(lastStart < firstFinish)
    }

    @Test func maxIterationsEndsTheRunWithAMessage() async throws {
        let clock = TestSkill("clock") { args in SkillResult(text: "tick \(args.serialized())") }
        let counter = ScriptedModel([.calls([("clock", #"{"n":1}"#)]), .calls([("clock", #"{"n":2}"#)]), .calls([("clock", #"{"n":3}"#)])])
        let outcome = try await AgentFixtures.loop([clock], model: counter, events: EventLog(), maxIterations: 3).run(AgentFixtures.request([clock]))
        #expect(outcome.finishReason == "max_iterations")
        #expect(outcome.iterations == 3)
        #expect(counter.requests.count == 3)
        #expect(clock.runs.count == 2)  // the last turn's calls are not run
        #expect(outcome.message?.contains("agent.max_iterations = 3") == true)
        #expect(outcome.response.text == outcome.message)
    }

    /// One answer asking for 200 calls ran 200 skills (with `http_get`, 200 outbound requests): the calls past
    /// `agent.max_skill_calls_per_turn` are answered with an error the model reads, not run; the run's last message
    /// counts a skill asked for many times instead of naming it each time.
    @Test func callsPastTheTurnsLimitAreAnsweredNotRun() async throws {
        let clock = TestSkill("clock") { args in SkillResult(text: "tick \(args.serialized())") }
        let many = (0..<200).map { ("clock", #"{"n":\#($0)}"#) }
        let model = ScriptedModel([.calls(many), .calls(many)])
        let outcome = try await AgentFixtures.loop([clock], model: model, events: EventLog(), maxIterations: 2, maxSkillCallsPerTurn: 16)
            .run(AgentFixtures.request([clock]))
        #expect(clock.runs.count == 16)
        let results = AgentFixtures.results(model, request: 2)
        #expect(results.count == 200)
        #expect(results.prefix(16).allSatisfy { !$0.isError && $0.text.hasPrefix("tick") })
        #expect(results.dropFirst(16).allSatisfy { $0.isError && $0.text.contains("agent.max_skill_calls_per_turn = 16") })
        let message = try #require(outcome.message)
        #expect(message.contains("clock ×200") && message.utf8.count < 400, "\(message)")
    }

    @Test func identicalRepeatedCallIsAnsweredWithAHint() async throws {
        let weather = TestSkill.fixed("weather", "rain", parameters: Self.citySchema)
        let model = ScriptedModel([.calls([("weather", #"{"city":"Oslo","days":1}"#)]), .calls([("weather", #"{"days":1, "city":"Oslo"}"#)]), .text("rain")])
        let events = EventLog()
        let outcome = try await AgentFixtures.loop([weather], model: model, events: events).run(AgentFixtures.request([weather]))
        #expect(weather.runs.count == 1)
        #expect(outcome.skillsRun == ["weather"])
        let hint = try #require(AgentFixtures.results(model, request: 3).last)
        #expect(hint.text.contains("already called weather with these arguments (step 1)"))
        #expect(!hint.isError)
    }

    @Test func skillTimeoutIsAnErrorResultAndCancelsTheSkill() async throws {
        let slow = TestSkill.slow("slow", timeout: .milliseconds(50))
        let model = ScriptedModel([.calls([("slow", "{}")]), .text("it timed out")])
        let events = EventLog()
        let outcome = try await AgentFixtures.loop([slow], model: model, events: events).run(AgentFixtures.request([slow]))
        #expect(outcome.response.text == "it timed out")
        let result = try #require(AgentFixtures.results(model, request: 2).first)
        #expect(result.isError)
        #expect(result.text.contains("did not answer within"))
        #expect(slow.sawCancellation)
        #expect(events.all.contains { if case .skillFinished(_, "slow", false, _, _, _) = $0 { true } else { false } })
    }

    @Test func failingSkillIsAnErrorResult() async throws {
        let broken = TestSkill("broken") { _ in throw GatewayError.invalidRequest("database offline") }
        let model = ScriptedModel([.calls([("broken", "{}")]), .text("sorry")])
        _ = try await AgentFixtures.loop([broken], model: model, events: EventLog()).run(AgentFixtures.request([broken]))
        let result = try #require(AgentFixtures.results(model, request: 2).first)
        #expect(result.isError && result.text.contains("database offline"))
    }

    @Test func hugeResultIsTruncatedWithANote() async throws {
        let huge = TestSkill("huge") { _ in SkillResult(text: String(repeating: "é", count: 100_000)) }
        let model = ScriptedModel([.calls([("huge", "{}")]), .text("ok")])
        _ = try await AgentFixtures.loop([huge], model: model, events: EventLog(), maxResultBytes: 1024).run(AgentFixtures.request([huge]))
        let text = try #require(AgentFixtures.results(model, request: 2).first?.text)
        #expect(text.utf8.count <= 1024)
        #expect(text.contains("[truncated: the result was 200000 bytes"))
        #expect(text.hasPrefix("éé"))
        #expect(!text.contains("\u{FFFD}"))
    }

    @Test func confirmationSkillIsReturnedToTheClientNotRun() async throws {
        let delete = TestSkill("delete_note", requiresConfirmation: true) { _ in SkillResult(text: "deleted") }
        let clock = TestSkill.fixed("clock", "now")
        let model = ScriptedModel([.calls([("delete_note", #"{"id":7}"#), ("clock", "{}")])])
        let events = EventLog()
        let outcome = try await AgentFixtures.loop([delete, clock], model: model, events: events).run(AgentFixtures.request([delete, clock]))
        #expect(outcome.finishReason == "tool_calls")
        #expect(outcome.response.toolCalls.map(\.name) == ["delete_note"])
        #expect(delete.runs.isEmpty && clock.runs.isEmpty)
        #expect(events.all.contains(.toolCall(callId: "call_1_0", name: "delete_note", arguments: ["id": 7], requiresConfirmation: true)))
    }

    @Test func clientToolIsHandedBack() async throws {
        let clock = TestSkill.fixed("clock", "now")
        let openMap = ToolDefinition(name: "open_map", description: "Opens a map")
        let model = ScriptedModel([.calls([("clock", "{}")]), .calls([("open_map", #"{"q":"Oslo"}"#)])])
        let events = EventLog()
        let outcome = try await AgentFixtures.loop([clock], model: model, events: events).run(AgentFixtures.request([clock], clientTools: [openMap]))
        #expect(outcome.finishReason == "tool_calls")
        #expect(outcome.iterations == 2)
        #expect(outcome.response.toolCalls == [ToolCall(id: "call_2_0", name: "open_map", arguments: #"{"q":"Oslo"}"#)])
        #expect(events.all.last == .toolCall(callId: "call_2_0", name: "open_map", arguments: ["q": "Oslo"], requiresConfirmation: false))
    }

    @Test func invalidArgumentsAreCorrectedOnTheSecondTry() async throws {
        let weather = TestSkill.fixed("weather", "snow", parameters: Self.citySchema)
        let model = ScriptedModel([.calls([("weather", #"{"days":2}"#)]), .calls([("weather", #"{"city":"Bergen","days":2}"#)]), .text("snow")])
        let outcome = try await AgentFixtures.loop([weather], model: model, events: EventLog()).run(AgentFixtures.request([weather]))
        let first = try #require(AgentFixtures.results(model, request: 2).first)
        #expect(first.isError)
        #expect(first.text.contains("city"))
        #expect(first.text.contains("Call weather again"))
        #expect(weather.runs == [["city": "Bergen", "days": 2]])
        #expect(outcome.response.text == "snow")
    }

    @Test func callToAnUnshownSkillGoesBackToTheModel() async throws {
        let clock = TestSkill.fixed("clock", "now")
        let hidden = TestSkill.fixed("hidden", "secret")
        let model = ScriptedModel([.calls([("hidden", "{}")]), .text("ok")])
        // `hidden` is registered and visible to the loop's lookup, but not in the request's tools.
        let outcome = try await AgentFixtures.loop([clock, hidden], model: model, events: EventLog()).run(AgentFixtures.request([clock]))
        let result = try #require(AgentFixtures.results(model, request: 2).first)
        #expect(result.isError && result.text.contains("\"hidden\" is not available here (available: clock)"))
        #expect(hidden.runs.isEmpty)
        #expect(outcome.response.text == "ok")
    }

    @Test func cancellationReachesRunningSkills() async throws {
        let slow = TestSkill.slow("slow")
        let model = ScriptedModel([.calls([("slow", "{}")]), .text("never")])
        let loop = AgentFixtures.loop([slow], model: model, events: EventLog())
        let task = Task { try await loop.run(AgentFixtures.request([slow])) }
        while slow.runs.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(slow.sawCancellation)
        #expect(model.requests.count == 1)  // no further model call after the cancellation
    }

    @Test func cancellationReachesTheModelCall() async throws {
        let clock = TestSkill.fixed("clock", "now")
        let model = ScriptedModel([.calls([("clock", "{}")]), .hang])
        let loop = AgentFixtures.loop([clock], model: model, events: EventLog())
        let task = Task { try await loop.run(AgentFixtures.request([clock])) }
        while model.requests.count < 2 { try await Task.sleep(for: .milliseconds(2)) }
        task.cancel()
        _ = await task.result
        #expect(model.sawCancellation)
    }

    @Test func truncationKeepsShortResultsAndCanonicalFormSortsKeys() {
        #expect(SkillExecution.truncate("short", maxBytes: 256) == "short")
        #expect(SkillExecution.canonical(["b": 1, "a": ["y": 2, "x": [1, "s"]]]) == SkillExecution.canonical(["a": ["x": [1, "s"], "y": 2], "b": 1]))
    }
}
