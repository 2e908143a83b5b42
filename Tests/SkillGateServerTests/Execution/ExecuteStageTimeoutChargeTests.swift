import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateRouting
@testable import SkillGateServer

/// The execute stage charges each attempt that timed out after its request went out an estimate of its input, under the
/// deployment that timed out (decision 0130); a connect timeout, and a provider's own timeout answer, are not charged.
@Suite struct ExecuteStageTimeoutChargeTests {
    typealias F = ResilienceFixtures
    static let request = ChatRequest(model: "light", messages: [Message(role: .user, text: String(repeating: "weather in Oslo? ", count: 40))])
    /// 680 bytes of prompt: 170 tokens at four bytes a token, plus what the estimate adds for the message.
    static var estimate: Int { UsageEstimate.tokens(bytes: UsageEstimate.inputBytes(of: request)) }

    static func timedOut(_ provider: String, _ kind: HTTPClientError.Kind) -> GatewayError {
        HTTPClientError(kind: kind, detail: "d").gatewayError(provider: provider)
    }

    private func run(_ h: RouteExecutorHarness, stream: Bool) async throws -> RequestLogEntry {
        var log = RequestLogEntry(requestId: "req_1", method: "POST", path: "/")
        let e = try await ExecuteStage(executor: h.executor).once(Self.request, plan: h.plan, policy: AnswerPolicy(escalationTargets: nil, scenario: "s"),
                                                                  stream: stream, caller: nil, &log)
        if case .streaming(var s) = e { while try await s.next() != nil {} }
        return log
    }

    @Test(arguments: [HTTPClientError.Kind.firstByteTimeout, .idleTimeout, .totalTimeout], [false, true])
    func aTimeoutAfterTheRequestWentOutIsChargedUnderItsDeployment(_ kind: HTTPClientError.Kind, _ stream: Bool) async throws {
        var answer = F.text("sunny")
        answer.usage = Usage(inputTokens: 7, outputTokens: 2)
        let h = RouteExecutorHarness([("a", [.fail(Self.timedOut("a", kind))]), ("b", [.answer(answer)])])
        let log = try await run(h, stream: stream)
        #expect(log.model == "b/m" && log.attempts.map(\.text) == ["a/m: 504 upstream_timeout", "b/m: 200 ok"], "\(log.attempts)")
        #expect(log.unusableUsage == Usage(inputTokens: Self.estimate, outputTokens: 0) && Self.estimate >= 170, "\(String(describing: log.unusableUsage))")
        #expect(log.unusableSpend.map(\.model) == ["a/m"] && log.unusableSpend.first?.attempts == 1)
        #expect(log.usageEstimated)
        if !stream { #expect(log.usage == Usage(inputTokens: 7, outputTokens: 2), "the answer's own usage is left as it was") }
    }

    @Test func eachTimedOutAttemptIsCharged() async throws {
        let h = RouteExecutorHarness([("a", [.fail(Self.timedOut("a", .firstByteTimeout))]), ("b", [.fail(Self.timedOut("b", .firstByteTimeout))])]) {
            $0.maxAttempts = 2
        }
        var log = RequestLogEntry(requestId: "req_1", method: "POST", path: "/")
        await #expect(throws: GatewayError.self) {
            _ = try await ExecuteStage(executor: h.executor).once(Self.request, plan: h.plan, policy: AnswerPolicy(escalationTargets: nil, scenario: "s"),
                                                                  stream: false, caller: nil, &log)
        }
        #expect(log.unusableUsage?.inputTokens == 2 * Self.estimate && log.unusableSpend.map(\.model) == ["a/m", "b/m"] && log.usage == nil)
    }

    /// An answer with its usage reported (one without is charged an estimate and marked so, decision 0146).
    static func reported(_ response: ChatResponse) -> ChatResponse {
        var response = response
        response.usage = Usage(inputTokens: 7, outputTokens: 2)
        return response
    }

    /// Guards: the connect timeout fires before the request goes out; a provider's own 504 says it failed.
    @Test func aConnectTimeoutOrAProvidersTimeoutAnswerIsNotCharged() async throws {
        let providers504 = GatewayError(domain: .provider, kind: .upstreamTimeout, status: 504, message: "a timed out", provider: "b", upstreamStatus: 504)
        let h = RouteExecutorHarness([("a", [.fail(Self.timedOut("a", .connectTimeout))]), ("b", [.fail(providers504)]), ("c", [.answer(Self.reported(F.text("ok")))])])
        let log = try await run(h, stream: false)
        #expect(log.model == "c/m" && log.attempts.count == 3, "\(log.attempts.map(\.text))")
        #expect(log.unusableUsage == nil && !log.usageEstimated, "\(String(describing: log.unusableUsage))")
    }
}
