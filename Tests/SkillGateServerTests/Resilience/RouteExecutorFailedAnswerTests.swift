import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer

/// An answer that was a failed attempt (Gemini's `MALFORMED_FUNCTION_CALL`, decision 0117) is tried again within
/// `max_attempts` and the plan, like a 5xx, but leaves the deployment's health as an answer would.
@Suite struct RouteExecutorFailedAnswerTests {
    typealias F = ResilienceFixtures

    static func malformed(_ provider: String, inputTokens: Int = 100) -> GatewayError {
        .failedAnswer(.malformedFunctionCall, usage: Usage(inputTokens: inputTokens), message: "finish reason MALFORMED_FUNCTION_CALL",
                      provider: provider, upstreamCode: "MALFORMED_FUNCTION_CALL")
    }

    @Test func aFailedAnswerIsTriedAgainOnTheSameDeployment() async throws {
        let h = RouteExecutorHarness([("a", [.fail(Self.malformed("a")), .answer(F.text("good"))])])
        let (result, log) = await h.complete()
        #expect(try result.get() == "a")
        #expect(h.calls("a") == 2)
        #expect(log.count == 2 && log[0] == "a/m: 502 upstream_error (malformed_function_call)" && log[1].hasPrefix("a/m: 200 ok"), "\(log)")
    }

    @Test func aFailedAnswerFallsBackToTheNextDeployment() async throws {
        let h = RouteExecutorHarness([("a", [.fail(Self.malformed("a"))]), ("b", [.answer(F.text("from b"))])])
        let (result, log) = await h.complete()
        #expect(try result.get() == "b")
        #expect(log == ["a/m: 502 upstream_error (malformed_function_call)", "b/m: 200 ok"], "\(log)")
    }

    @Test func whenEveryAttemptFailsTheClientGetsTheFailedAnswerSayingHowManyTried() async throws {
        let h = RouteExecutorHarness([("a", [.fail(Self.malformed("a"))])]) { $0.maxAttempts = 3 }
        let (result, log) = await h.complete()
        guard case .failure(let e) = result else { Issue.record("expected the failed answer"); return }
        #expect(h.calls("a") == 3 && log.count == 3, "\(log)")
        #expect(e.failedAnswer?.reason == .malformedFunctionCall && e.status == 502)
        #expect(e.message.hasPrefix("3 attempts ended without a usable answer; the last: finish reason MALFORMED_FUNCTION_CALL"), "\(e.message)")
    }

    /// It depends on the request's tools, not on the deployment: it never cools the deployment down, and a half-open
    /// deployment that answers so is closed again, as by a provider's 4xx.
    @Test func failedAnswersNeverCoolTheDeploymentDown() async throws {
        let h = RouteExecutorHarness([("a", [.fail(Self.malformed("a"))])]) { $0.cooldownAfterFailures = 1; $0.maxAttempts = 2 }
        for _ in 0..<3 { _ = await h.complete() }
        #expect(h.calls("a") == 6)
        if case .coolingDown = h.executor.health.admit("a/m") { Issue.record("a failed answer cooled the deployment down") }
    }

    @Test func aFailedAnswerEndsTheRunOfFailures() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.serverError("a")), .fail(Self.malformed("a")), .fail(F.serverError("a")), .answer(F.text("a"))])]) {
            $0.cooldownAfterFailures = 2; $0.maxAttempts = 1
        }
        for _ in 0..<3 { _ = await h.complete() }
        if case .coolingDown = h.executor.health.admit("a/m") { Issue.record("the failed answer between two 5xx did not count as the deployment answering") }
    }

    /// A deployment whose unusable answers escalate: its failed answer ends the call at once, for the escalation.
    @Test(arguments: [false, true])
    func anEscalatingDeploymentsFailedAnswerIsNotTriedAgain(_ stream: Bool) async throws {
        let h = RouteExecutorHarness([("a", [.fail(Self.malformed("a")), .answer(F.text("never"))]), ("b", [.answer(F.text("never"))])])
        var attempts: [AttemptRecord] = []
        await #expect(throws: GatewayError.self) {
            if stream {
                _ = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts, escalates: { _ in true })
            } else {
                _ = try await h.executor.complete(F.request, plan: h.plan, caller: nil, attempts: &attempts, escalates: { _ in true })
            }
        }
        #expect(h.calls("a") == 1 && h.calls("b") == 0)
        #expect(attempts.map(\.logText) == ["a/m: 502 upstream_error (malformed_function_call)"])
    }
}
