import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer

/// A relayed stream's end is its attempt's outcome for the deployment's health (decision 0107): a failure because of
/// the upstream after the first event counts against the deployment as a failed attempt would, a normal end is the
/// success, a stream left before its end tells nothing.
@Suite struct RouteExecutorStreamHealthTests {
    typealias F = ResilienceFixtures

    /// Opens a stream and reads it to its end or its error; returns the answering provider and the attempts' log text
    /// (made after the stream ended, as the request's log line is).
    private func streamToEnd(_ h: RouteExecutorHarness) async throws -> (provider: String, failed: Bool, log: [String]) {
        var attempts: [AttemptRecord] = []
        var stream = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts)
        var failed = false
        do {
            while try await stream.next() != nil {}
        } catch {
            failed = true
        }
        return (stream.target.provider.id, failed, attempts.map(\.logText))
    }

    @Test func streamsFailingAfterTheirFirstEventCoolTheDeploymentDown() async throws {
        let h = RouteExecutorHarness([("a", [.streamThenFail([.start(id: "x", model: "m")], F.overloaded("a"))]),
                                      ("b", [.answer(F.text("b"))])]) {
            $0.cooldownAfterFailures = 3
            $0.cooldownSeconds = 30
        }
        for n in 1...3 {
            let (provider, failed, log) = try await streamToEnd(h)
            #expect(provider == "a" && failed)
            #expect(log == ["a/m: 200, then 503 upstream_overloaded mid-stream"], "\(log)")
            #expect(h.executor.health.snapshot("a/m").consecutiveFailures == n)
        }
        if case .coolingDown = h.executor.health.admit("a/m") {} else { Issue.record("a/m is not cooling down after 3 failed streams") }
        let (provider, failed, log) = try await streamToEnd(h)
        #expect(provider == "b" && !failed, "later streams go to the fallback")
        #expect(log.first?.hasPrefix("a/m: skipped (cooling down") == true && log.last == "b/m: 200 ok", "\(log)")
        #expect(h.calls("a") == 3)
    }

    @Test func aStreamThatEndsNormallyIsTheSuccessThatResetsTheFailures() async throws {
        let h = RouteExecutorHarness([("a", [.answer(F.text("fine"))])]) { $0.cooldownAfterFailures = 3 }
        h.executor.health.recordFailure("a/m")
        h.executor.health.recordFailure("a/m")
        var attempts: [AttemptRecord] = []
        var stream = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts)
        #expect(try await stream.next() == .start(id: "r", model: "m"))
        #expect(h.executor.health.snapshot("a/m").consecutiveFailures == 2, "the first event is not yet the stream's success")
        while try await stream.next() != nil {}
        #expect(h.executor.health.snapshot("a/m").consecutiveFailures == 0)
        #expect(attempts.map(\.logText) == ["a/m: 200 ok"])
        if case .succeeded = attempts[0].outcome {} else { Issue.record("\(attempts[0].outcome)") }
    }

    /// A harness whose deployment `a/m` failed once, cooled down and may now be probed (half-open).
    private func halfOpenAfterOneFailure() -> RouteExecutorHarness {
        let h = RouteExecutorHarness([("a", [.answer(F.text("fine"))])]) {
            $0.cooldownAfterFailures = 1
            $0.cooldownSeconds = 10
        }
        h.executor.health.recordFailure("a/m")
        h.clock.advance(by: .seconds(10))
        return h
    }

    @Test func aStreamLeftBeforeItsEndTellsNothingButFreesTheProbe() async throws {
        let h = halfOpenAfterOneFailure()
        var attempts: [AttemptRecord] = []
        var stream = try await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts)
        _ = try await stream.next()
        #expect(h.executor.health.snapshot("a/m").probing, "the stream is the half-open probe until it ends")
        stream.finish()  // the client left
        #expect(!h.executor.health.snapshot("a/m").probing && h.executor.health.snapshot("a/m").consecutiveFailures == 1)
        #expect(h.executor.health.admit("a/m") == .probe, "the next request may probe")
        #expect(attempts.map(\.logText) == ["a/m: 200 ok"])
    }

    /// The client left while its task waited for the next event: the iterator ends a cancelled task's stream with nil,
    /// which is not the stream's end. The reader hears the cancellation, and the deployment's health hears nothing
    /// (before, the half-open probe was closed as a success).
    @Test func aStreamWhoseReaderIsCancelledTellsNothing() async throws {
        let h = halfOpenAfterOneFailure()
        let outcome = await Task { () -> String in
            var attempts: [AttemptRecord] = []
            guard var stream = try? await h.executor.openStream(F.request, plan: h.plan, caller: nil, attempts: &attempts),
                  (try? await stream.next()) != nil else { return "not opened" }
            withUnsafeCurrentTask { $0?.cancel() }  // the client left
            defer { stream.finish() }
            do {
                while try await stream.next() != nil {}
                return "ended"
            } catch {
                return error is CancellationError ? "cancelled" : "\(error)"
            }
        }.value
        #expect(outcome == "cancelled")
        #expect(!h.executor.health.snapshot("a/m").probing && h.executor.health.snapshot("a/m").consecutiveFailures == 1,
                "no success: \(h.executor.health.snapshot("a/m"))")
        #expect(h.executor.health.admit("a/m") == .probe, "the next request may probe")
    }

    @Test func aCallerFaultMidStreamDoesNotCountAgainstTheDeployment() async throws {
        let h = RouteExecutorHarness([("a", [.streamThenFail([.start(id: "x", model: "m")], F.badRequest("a"))])]) { $0.cooldownAfterFailures = 1 }
        h.executor.health.recordFailure("a/m")
        h.executor.health.recordSuccess("a/m")
        for _ in 0..<3 {
            let (_, failed, log) = try await streamToEnd(h)
            #expect(failed && log == ["a/m: 200, then 400 invalid_request mid-stream"], "\(log)")
        }
        #expect(h.executor.health.admit("a/m") == .open && h.executor.health.snapshot("a/m").consecutiveFailures == 0)
    }
}
