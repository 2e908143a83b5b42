import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer

/// A stream that ends before its first event without an answer (`GatewayError.streamEndedEarly`) is a cut: the next
/// deployment is tried, and it counts against the deployment that ended it (decision 0129). After the first event, or
/// for a garbled answer, nothing changes.
@Suite struct RouteExecutorEndedEarlyTests {
    typealias F = ResilienceFixtures

    static func endedEarly(_ provider: String) -> GatewayError {
        .streamEndedEarly("\(provider) ended the stream before any chunk arrived", provider: provider, upstreamStatus: 200)
    }

    @Test func aStreamEndedBeforeItsFirstEventFallsBackAndCounts() async throws {
        let h = RouteExecutorHarness([("a", [.streamThenFail([], Self.endedEarly("a"))]), ("b", [.answer(F.text("b"))])]) {
            $0.cooldownAfterFailures = 1
        }
        var attempts: [AttemptRecord] = []
        var stream = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts)
        while try await stream.next() != nil {}
        #expect(stream.target.provider.id == "b")
        #expect(attempts.map(\.logText) == ["a/m: 502 upstream_unavailable", "b/m: 200 ok"], "\(attempts.map(\.logText))")
        if case .coolingDown = h.executor.health.admit("a/m") {} else { Issue.record("the deployment that ended early was not counted") }
    }

    @Test func withoutAFallbackTheErrorSaysWhatToDoAndQuotesTheProvider() async throws {
        let h = RouteExecutorHarness([("a", [.streamThenFail([], Self.endedEarly("a"))])]) { $0.maxAttempts = 1 }
        var attempts: [AttemptRecord] = []
        do {
            _ = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts)
            Issue.record("the stream opened")
        } catch let e as GatewayError {
            #expect(e.kind == .upstreamUnavailable && e.status == 502 && e.domain == .provider && e.upstreamStatus == nil, "\(e)")
            #expect(e.message.contains("before its first event") && e.message.contains("Retry the request")
                        && e.message.contains("a ended the stream before any chunk arrived"), "\(e.message)")
        }
    }

    /// Guards: after the first event the truncation is the stream's error, as before; a garbled answer is not retried.
    @Test func afterTheFirstEventOrWhenGarbledNothingChanges() async throws {
        let h = RouteExecutorHarness([("a", [.streamThenFail([.start(id: "x", model: "m")], Self.endedEarly("a"))]), ("b", [.answer(F.text("b"))])])
        var attempts: [AttemptRecord] = []
        var stream = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts)
        await #expect(throws: GatewayError.self) { while try await stream.next() != nil {} }
        #expect(stream.target.provider.id == "a" && h.calls("b") == 0)

        let garbled = GatewayError.upstreamProtocol("a sent a page", provider: "a", upstreamStatus: 200)
        let g = RouteExecutorHarness([("a", [.streamThenFail([], garbled)]), ("b", [.answer(F.text("b"))])])
        var more: [AttemptRecord] = []
        await #expect(throws: GatewayError.self) { _ = try await g.executor.openStream(F.request, plan: g.plan, caller: nil, attempts: &more) }
        #expect(g.calls("b") == 0 && more.map(\.logText) == ["a/m: 502 upstream_protocol"])
    }
}
