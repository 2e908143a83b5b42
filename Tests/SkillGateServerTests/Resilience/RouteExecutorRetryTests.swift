import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer

@Suite struct RouteExecutorRetryTests {
    typealias F = ResilienceFixtures

    @Test(arguments: [F.rateLimited("a"), F.serverError("a", 500), F.serverError("a", 503), F.overloaded("a"), F.timeout("a"), F.missingKey("a")])
    func retryableFailuresFallBackToTheNextDeployment(_ failure: GatewayError) async throws {
        let h = RouteExecutorHarness([("a", [.fail(failure)]), ("b", [.answer(F.text("from b"))])])
        let (result, log) = await h.complete()
        #expect(try result.get() == "b")
        #expect(log.count == 2 && log[0].hasPrefix("a/m: \(failure.status) \(failure.kind.rawValue)") && log[1] == "b/m: 200 ok", "\(log)")
    }

    /// A provider refusing the gateway's key or model id (decision 0106): the next deployment is tried at once, and the
    /// refusing one is not tried again in this request (it would refuse again whatever the wait).
    @Test(arguments: [F.refusedKey("a"), F.unknownModel("a")])
    func aRefusalFallsBackAndIsNotRetriedOnTheSameDeployment(_ refusal: GatewayError) async throws {
        let h = RouteExecutorHarness([("a", [.fail(refusal), .answer(F.text("never"))]), ("b", [.fail(F.serverError("b")), .answer(F.text("b"))])])
        let (result, log) = await h.complete()
        #expect(try result.get() == "b")
        #expect(h.calls("a") == 1, "\(log)")
        #expect(log.map { String($0.prefix(3)) } == ["a/m", "b/m", "b/m"], "\(log)")
    }

    @Test func aRefusalOnTheOnlyDeploymentIsPassedOnAtOnce() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.refusedKey("a")), .answer(F.text("never"))])])
        let (result, log) = await h.complete()
        guard case .failure(let e) = result else { Issue.record("expected the refusal"); return }
        #expect(e.refusal == .key && e.provider == "a" && e.status == 502)
        #expect(h.calls("a") == 1 && h.clock.sleeps.isEmpty, "\(log)")
    }

    @Test func aCallerErrorIsNotRetried() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.badRequest("a"))]), ("b", [.answer(F.text("b"))])])
        let (result, _) = await h.complete()
        #expect(throws: GatewayError.self) { try result.get() }
        #expect(h.calls("b") == 0)
    }

    @Test func fallbackOrderFollowsThePlanAndComesBackToTheFirst() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.serverError("a")), .answer(F.text("a again"))]),
                                      ("b", [.fail(F.serverError("b"))]), ("c", [.fail(F.serverError("c"))])])
        let (result, log) = await h.complete()
        #expect(try result.get() == "a")
        #expect(log.map { String($0.prefix(3)) } == ["a/m", "b/m", "c/m", "a/m"])
        #expect(log[3].contains("200 ok"))
    }

    @Test func retryAfterIsHonouredBeforeTryingTheSameDeploymentAgain() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.rateLimited("a", retryAfter: 2)), .answer(F.text("ok"))])])
        let (result, log) = await h.complete()
        #expect(try result.get() == "a")
        #expect(h.clock.sleeps == [.seconds(2)], "waited \(h.clock.sleeps)")
        #expect(log == ["a/m: 429 rate_limited", "a/m: 200 ok after 2000 ms"])
    }

    @Test func aRetryAfterBeyondTheLongestWaitPassesThe429On() async {
        let h = RouteExecutorHarness([("a", [.fail(F.rateLimited("a", retryAfter: 7)), .answer(F.text("never"))])])
        let (result, log) = await h.complete()
        guard case .failure(let e) = result else { Issue.record("expected the 429"); return }
        #expect(e.status == 429 && e.retryAfter == 7)
        #expect(h.calls("a") == 1 && h.clock.sleeps.isEmpty)
        #expect(log.last?.contains("skipped") == true, "\(log)")
    }

    @Test func backoffStaysInsideTheDeadline() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.serverError("a"))])]) {
            $0.maxAttempts = 20
            $0.deadlineSeconds = 2
            $0.backoffInitialMs = 200
            $0.backoffMaxMs = 5000
        }
        let start = h.clock.now
        let (result, _) = await h.complete()
        #expect(throws: GatewayError.self) { try result.get() }
        #expect(h.clock.now - start <= .seconds(2), "waited \(h.clock.sleeps)")
        #expect(h.calls("a") >= 3 && h.calls("a") < 20, "\(h.calls("a")) calls")
        let sleeps = h.clock.sleeps
        #expect(zip(sleeps, sleeps.dropFirst()).allSatisfy { $0 < $1 }, "backoff grows: \(sleeps)")
    }

    @Test func maxAttemptsBoundsTheCalls() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.serverError("a"))]), ("b", [.fail(F.serverError("b"))])]) { $0.maxAttempts = 3 }
        _ = await h.complete()
        #expect(h.calls("a") + h.calls("b") == 3)
    }

    @Test func aStreamIsNotRetriedOnceTheFirstEventArrived() async throws {
        let h = RouteExecutorHarness([("a", [.streamThenFail([.start(id: "x", model: "m"), .textDelta("Hel")], F.serverError("a"))]),
                                      ("b", [.answer(F.text("b"))])])
        var attempts: [AttemptRecord] = []
        var stream = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts)
        #expect(stream.target.provider.id == "a")
        var events: [ChatStreamEvent] = []
        await #expect(throws: GatewayError.self) {
            while let e = try await stream.next() { events.append(e) }
        }
        #expect(events == [.start(id: "x", model: "m"), .textDelta("Hel")])
        #expect(h.calls("b") == 0, "nothing is retried after the first event")
        #expect(h.executor.health.inFlight("a/m") == 0, "the in-flight slot is released when the stream fails")
    }

    @Test func aStreamFailingBeforeItsFirstEventFallsBack() async throws {
        let h = RouteExecutorHarness([("a", [.streamThenFail([], F.overloaded("a"))]), ("b", [.answer(F.text("b"))])])
        var attempts: [AttemptRecord] = []
        var stream = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts)
        #expect(stream.target.provider.id == "b")
        var text = ""
        while let e = try await stream.next() { if case .textDelta(let t) = e { text += t } }
        #expect(text == "b")
        #expect(attempts.map(\.logText) == ["a/m: 503 upstream_overloaded", "b/m: 200 ok"])
    }
}
