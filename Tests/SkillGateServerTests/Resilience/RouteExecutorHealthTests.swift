import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer

@Suite struct RouteExecutorHealthTests {
    typealias F = ResilienceFixtures

    @Test func aFailingDeploymentIsCooledDownSkippedAndProbedAfterTheCooldown() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.serverError("a", 503))]), ("b", [.answer(F.text("b"))])]) {
            $0.cooldownAfterFailures = 2
            $0.cooldownSeconds = 30
        }
        for _ in 0..<2 { #expect(try await h.complete().0.get() == "b") }
        #expect(h.calls("a") == 2)
        let (result, log) = await h.complete()
        #expect(try result.get() == "b")
        #expect(h.calls("a") == 2, "a is cooling down: not called")
        #expect(log.first?.hasPrefix("a/m: skipped (cooling down") == true, "\(log)")

        h.clock.advance(by: .seconds(30))
        _ = await h.complete()
        #expect(h.calls("a") == 3, "after the cooldown one probe goes to a")
        #expect(h.executor.health.admit("a/m") != .open, "the failed probe cools it down again")
    }

    @Test func aDeploymentComesBackWhenItsProbeSucceeds() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.timeout("a")), .answer(F.text("a is back"))]), ("b", [.answer(F.text("b"))])]) {
            $0.cooldownAfterFailures = 1
            $0.cooldownSeconds = 10
        }
        #expect(try await h.complete().0.get() == "b")
        #expect(try await h.complete().0.get() == "b")
        h.clock.advance(by: .seconds(10))
        #expect(try await h.complete().0.get() == "a", "the probe succeeds")
        #expect(try await h.complete().0.get() == "a", "and a is preferred again")
        #expect(h.executor.health.snapshot("a/m").consecutiveFailures == 0)
    }

    @Test func whenEveryDeploymentIsCoolingDownTheFirstToRecoverGetsOneAttempt() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.serverError("a"))]), ("b", [.fail(F.overloaded("b"))])]) {
            $0.cooldownAfterFailures = 1
            $0.cooldownSeconds = 20
        }
        _ = await h.complete(plan: F.plan([h.targets[1]]))
        h.clock.advance(by: .seconds(3))
        _ = await h.complete(plan: F.plan([h.targets[0]]))
        #expect(h.calls("a") == 1 && h.calls("b") == 1, "both cooled down after one failure each")
        h.clock.advance(by: .seconds(5))
        let (result, log) = await h.complete()
        guard case .failure(let e) = result else { Issue.record("expected the provider's error"); return }
        #expect(e.status == 503 && e.provider == "b", "the client gets the provider's own error: \(e)")
        #expect(h.calls("a") == 1 && h.calls("b") == 2, "one attempt, no retries, on b (its cooldown ends first)")
        #expect(log == ["a/m: skipped (cooling down, 15 s left)", "b/m: 503 upstream_overloaded"], "\(log)")
    }

    /// A refused key or model id fails every request the same way: it counts towards the cooldown like a 5xx, where it
    /// once marked the deployment healthy ("it answered") and kept it in front of the tier.
    @Test(arguments: [F.refusedKey("a"), F.unknownModel("a")])
    func aRefusalCountsAgainstHealth(_ refusal: GatewayError) async throws {
        let h = RouteExecutorHarness([("a", [.fail(refusal)]), ("b", [.answer(F.text("b"))])]) {
            $0.cooldownAfterFailures = 2
            $0.cooldownSeconds = 30
        }
        for _ in 0..<4 { #expect(try await h.complete().0.get() == "b") }
        #expect(h.calls("a") == 2, "cooling down after two refusals")
        if case .coolingDown = h.executor.health.admit("a/m") {} else { Issue.record("a/m should be cooling down") }
    }

    @Test func aCallerErrorDoesNotCountAgainstHealth() async throws {
        let h = RouteExecutorHarness([("a", [.fail(F.badRequest("a"))])]) { $0.cooldownAfterFailures = 1 }
        for _ in 0..<3 { _ = await h.complete() }
        #expect(h.calls("a") == 3)
        #expect(h.executor.health.admit("a/m") == .open)
    }

    @Test func leastInFlightSendsTheRequestToTheIdleDeployment() async throws {
        let h = RouteExecutorHarness([("a", [.answer(F.text("a"))]), ("b", [.answer(F.text("b"))])]) { $0.balance = .leastInFlight }
        var attempts: [AttemptRecord] = []
        var busy = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts)
        #expect(busy.target.provider.id == "a", "equal load keeps the plan order")
        #expect(h.executor.health.inFlight("a/m") == 1)
        #expect(try await h.complete().0.get() == "b", "a is busy with a stream: the idle b goes first")
        while try await busy.next() != nil {}
        #expect(h.executor.health.inFlight("a/m") == 0)
        #expect(try await h.complete().0.get() == "a")
    }

    @Test func weightedBalancingSpreadsRequestsByWeight() async throws {
        let h = RouteExecutorHarness([("a", [.answer(F.text("a"))]), ("b", [.answer(F.text("b"))])]) {
            $0.balance = .weighted
            $0.weights = ["a/m": 1, "b/m": 4]
        }
        // 1000 draws at p = 0.8: σ = 1.26 points, so the bound is 5σ; equal weights (50 %) fail it every time.
        for _ in 0..<1000 { _ = await h.complete() }
        let share = Double(h.calls("b")) / 1000
        #expect(abs(share - 0.8) < 0.065, "b answered \(share * 100)%, expected 80%")
    }
}
