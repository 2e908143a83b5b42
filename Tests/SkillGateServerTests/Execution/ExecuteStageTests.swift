import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer

/// The execute stage over scripted upstreams: answers, unusable answers as values, buffered and
/// replayed streams, the invisible-call rule mid-stream.
@Suite struct ExecuteStageTests {
    static let weather = ToolDefinition(name: "get_weather", description: "Weather",
                                        parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
    static let request = ChatRequest(model: "light", messages: [Message(role: .user, text: "weather?")], tools: [weather])

    private func call(_ name: String, _ args: String) -> ChatResponse {
        ChatResponse(id: "r", model: "m", content: [.toolCall(ToolCall(id: "c1", name: name, arguments: args))], finishReason: .toolCalls, usage: Usage())
    }

    private func run(_ h: RouteExecutorHarness, policy: AnswerPolicy, stream: Bool) async throws -> (Execution, RequestLogEntry) {
        var log = RequestLogEntry(requestId: "req_1", method: "POST", path: "/")
        let e = try await ExecuteStage(executor: h.executor).once(Self.request, plan: h.plan, policy: policy, stream: stream, caller: nil, &log)
        return (e, log)
    }

    @Test(arguments: [false, true])
    func anUnusableAnswerIsReturnedNotThrownWhenTheCallEscalates(_ stream: Bool) async throws {
        let h = RouteExecutorHarness([("light-up", [.answer(call("delete_files", "{}"))])])
        let (e, log) = try await run(h, policy: AnswerPolicy(escalationTargets: ["strong-up/m"], scenario: "s"), stream: stream)
        guard case .unusable(let u, let target) = e else { Issue.record("expected .unusable, got \(e)"); return }
        #expect(u.reason == "tool_not_offered" && target.qualifiedName == "light-up/m")
        #expect(log.model == "light-up/m" && log.attempts.map(\.text) == ["light-up/m: 200 ok"])
    }

    @Test func aGoodAnswerOfAnEscalatingCallIsBufferedAndReplayedWhole() async throws {
        let h = RouteExecutorHarness([("light-up", [.answer(ResilienceFixtures.text("Sunny in Oslo"))])])
        let (e, _) = try await run(h, policy: AnswerPolicy(escalationTargets: ["strong-up/m"], scenario: "s"), stream: true)
        guard case .streaming(var upstream) = e else { Issue.record("expected .streaming, got \(e)"); return }
        var text = ""
        while let event = try await upstream.next() { if case .textDelta(let t) = event { text += t } }
        #expect(text == "Sunny in Oslo")
        #expect(h.calls("light-up") == 1)
    }

    @Test func withoutEscalationAStreamedInvisibleCallEndsTheStreamWithTheError() async throws {
        let h = RouteExecutorHarness([("light-up", [.answer(call("delete_files", "{}"))])])
        let (e, _) = try await run(h, policy: AnswerPolicy(escalationTargets: nil, scenario: "s"), stream: true)
        guard case .streaming(var upstream) = e else { Issue.record("expected .streaming"); return }
        await #expect(throws: GatewayError.self) {
            while try await upstream.next() != nil {}
        }
    }

    @Test func upstreamFailuresAreThrownAndTheLastDeploymentTriedIsLogged() async throws {
        let h = RouteExecutorHarness([("light-up", [.fail(ResilienceFixtures.badRequest("light-up"))])])
        var log = RequestLogEntry(requestId: "req_1", method: "POST", path: "/")
        await #expect(throws: GatewayError.self) {
            _ = try await ExecuteStage(executor: h.executor).once(Self.request, plan: h.plan, policy: AnswerPolicy(escalationTargets: nil, scenario: "s"),
                                                                  stream: false, caller: nil, &log)
        }
        #expect(log.model == "light-up/m" && log.attempts.count == 1)
    }
}

extension ExecuteStageTests {
    /// An escalating call's stream is read whole before anything is sent: one that breaks before its end falls back to
    /// the next deployment as a failed attempt, and counts against the one that broke (decision 0107).
    @Test func anEscalatingStreamThatBreaksBeforeItsEndFallsBack() async throws {
        let broken = ResilienceFixtures.serverError("light-up", 503)
        let h = RouteExecutorHarness([("light-up", [.streamThenFail([.start(id: "x", model: "m"), .textDelta("Sun")], broken)]),
                                      ("other-up", [.answer(ResilienceFixtures.text("Sunny in Oslo"))])]) { $0.cooldownAfterFailures = 1 }
        let (e, log) = try await run(h, policy: AnswerPolicy(escalationTargets: ["strong-up/m"], scenario: "s"), stream: true)
        guard case .streaming(var upstream) = e else { Issue.record("expected .streaming, got \(e)"); return }
        var text = ""
        while let event = try await upstream.next() { if case .textDelta(let t) = event { text += t } }
        #expect(text == "Sunny in Oslo" && upstream.target.qualifiedName == "other-up/m")
        #expect(log.model == "other-up/m" && log.attempts.map(\.text) == ["light-up/m: 502 upstream_error", "other-up/m: 200 ok"], "\(log.attempts)")
        if case .coolingDown = h.executor.health.admit("light-up/m") {} else { Issue.record("the broken deployment did not count the failure") }
    }
}

/// Failed answers (Gemini's `MALFORMED_FUNCTION_CALL`, decision 0117) in the execute stage.
extension ExecuteStageTests {
    static func malformed(_ provider: String) -> GatewayError {
        .failedAnswer(.malformedFunctionCall, usage: Usage(inputTokens: 2000), message: "finish reason MALFORMED_FUNCTION_CALL", provider: provider)
    }

    /// With escalation on, a failed answer escalates at once (as the empty answer it used to be did): the light tier is
    /// not tried again, and the reason is the failed answer's.
    @Test(arguments: [false, true])
    func aFailedAnswerOfAnEscalatingCallEscalatesAtOnce(_ stream: Bool) async throws {
        let h = RouteExecutorHarness([("light-up", [.fail(Self.malformed("light-up")), .answer(ResilienceFixtures.text("never"))]),
                                      ("other-up", [.answer(ResilienceFixtures.text("never"))])])
        let (e, log) = try await run(h, policy: AnswerPolicy(escalationTargets: ["strong-up/m"], scenario: "s"), stream: stream)
        guard case .unusable(let u, let target) = e else { Issue.record("expected .unusable, got \(e)"); return }
        #expect(u.reason == "malformed_function_call" && target.qualifiedName == "light-up/m")
        #expect(h.calls("light-up") == 1 && h.calls("other-up") == 0)
        #expect(log.unusableUsage == Usage(inputTokens: 2000), "the failed answer was paid for")
    }

    /// Without escalation it is tried again, and what the failed attempt used is counted beside the answer.
    @Test(arguments: [false, true])
    func aFailedAnswerIsTriedAgainAndItsUsageCounted(_ stream: Bool) async throws {
        let h = RouteExecutorHarness([("light-up", [.fail(Self.malformed("light-up"))]),
                                      ("other-up", [.answer(ResilienceFixtures.text("Sunny in Oslo"))])])
        let (e, log) = try await run(h, policy: AnswerPolicy(escalationTargets: nil, scenario: "s"), stream: stream)
        switch e {
        case .answered(let r, let target): #expect(r.text == "Sunny in Oslo" && target.qualifiedName == "other-up/m")
        case .streaming(let upstream): #expect(upstream.target.qualifiedName == "other-up/m")
        case .unusable: Issue.record("expected an answer, got \(e)")
        }
        #expect(log.attempts.map(\.text) == ["light-up/m: 502 upstream_error (malformed_function_call)", "other-up/m: 200 ok"], "\(log.attempts)")
        #expect(log.unusableUsage == Usage(inputTokens: 2000))
    }
}
