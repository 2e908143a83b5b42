import Testing
import SkillGateCore
import SkillGateRouting

@Suite struct RetryScheduleTests {
    let t0 = ContinuousClock.now
    let open: (Int) -> RetrySchedule.SkipReason? = { _ in nil }
    static let serverError = GatewayError(domain: .provider, kind: .upstreamError, status: 502, message: "boom", upstreamStatus: 500)

    static func rateLimited(_ seconds: Double) -> GatewayError {
        GatewayError(domain: .provider, kind: .rateLimited, status: 429, message: "slow down", upstreamStatus: 429, retryAfter: seconds)
    }

    @Test func fallsBackThroughThePlanThenComesBackAfterTheBackoff() {
        let policy = RetryPolicy(maxAttempts: 3, backoffInitial: .milliseconds(100), backoffMax: .seconds(1))
        var s = RetrySchedule(order: [1, 0], policy: policy, start: t0)
        #expect(s.next(now: t0, admit: open) == .attempt(index: 1, wait: .zero))
        s.failed(1, error: Self.serverError, now: t0, unitRandom: 0)
        #expect(s.next(now: t0, admit: open) == .attempt(index: 0, wait: .zero), "the next deployment is tried at once")
        s.failed(0, error: Self.serverError, now: t0, unitRandom: 0)
        #expect(s.next(now: t0, admit: open) == .attempt(index: 1, wait: .milliseconds(50)), "then the first again after its backoff")
        s.failed(1, error: Self.serverError, now: t0 + .milliseconds(50), unitRandom: 0)
        #expect(s.next(now: t0 + .milliseconds(50), admit: open) == .giveUp, "max_attempts reached")
    }

    /// A key swap (the same deployment at once with another key) takes an attempt of the budget: `max_attempts`
    /// bounds every upstream call of the request (decision 0110).
    @Test func anImmediateAttemptTakesFromTheSameBudget() {
        var s = RetrySchedule(order: [0, 1], policy: RetryPolicy(maxAttempts: 3), start: t0)
        #expect(s.next(now: t0, admit: open) == .attempt(index: 0, wait: .zero))
        let granted = s.takeImmediateAttempt(now: t0)
        #expect(granted)
        #expect(s.attempts == 2)
        s.failed(0, error: Self.serverError, now: t0, unitRandom: 0)
        #expect(s.next(now: t0, admit: open) == .attempt(index: 1, wait: .zero))
        let refused = !s.takeImmediateAttempt(now: t0)
        #expect(refused, "the budget is spent")
        s.failed(1, error: Self.serverError, now: t0, unitRandom: 0)
        #expect(s.next(now: t0, admit: open) == .giveUp)
        #expect(s.attempts == 3)
    }

    @Test func noImmediateAttemptPastTheDeadline() {
        var s = RetrySchedule(order: [0], policy: RetryPolicy(maxAttempts: 5, deadline: .seconds(1)), start: t0)
        _ = s.next(now: t0, admit: open)
        let granted = s.takeImmediateAttempt(now: t0 + .seconds(1))
        #expect(!granted)
        #expect(s.attempts == 1)
    }

    @Test func retryAfterIsWaitedOutOnTheSameDeployment() {
        var s = RetrySchedule(order: [0], policy: RetryPolicy(backoffInitial: .milliseconds(10)), start: t0)
        #expect(s.next(now: t0, admit: open) == .attempt(index: 0, wait: .zero))
        s.failed(0, error: Self.rateLimited(2), now: t0, unitRandom: 0.5)
        #expect(s.next(now: t0 + .milliseconds(500), admit: open) == .attempt(index: 0, wait: .milliseconds(1500)))
    }

    @Test func retryAfterPastTheDeadlineGivesUp() {
        var s = RetrySchedule(order: [0], policy: RetryPolicy(deadline: .seconds(10), maxWait: .seconds(60)), start: t0)
        _ = s.next(now: t0, admit: open)
        s.failed(0, error: Self.rateLimited(30), now: t0, unitRandom: 0.5)
        guard case .skip(0, .waitTooLong(let w)) = s.next(now: t0, admit: open) else { Issue.record("expected a skip"); return }
        #expect(w == .seconds(30))
        #expect(s.next(now: t0, admit: open) == .giveUp)
    }

    @Test func retryAfterLongerThanMaxWaitMovesOnToTheNextDeployment() {
        var s = RetrySchedule(order: [0, 1], policy: RetryPolicy(maxWait: .seconds(5)), start: t0)
        _ = s.next(now: t0, admit: open)
        s.failed(0, error: Self.rateLimited(7), now: t0, unitRandom: 0.5)
        #expect(s.next(now: t0, admit: open) == .attempt(index: 1, wait: .zero))
        s.failed(1, error: Self.rateLimited(7), now: t0, unitRandom: 0.5)
        if case .skip(0, .waitTooLong) = s.next(now: t0, admit: open) {} else { Issue.record("expected deployment 0 skipped") }
        if case .skip(1, .waitTooLong) = s.next(now: t0, admit: open) {} else { Issue.record("expected deployment 1 skipped") }
        #expect(s.next(now: t0, admit: open) == .giveUp)
    }

    @Test func backoffNeverRunsPastTheDeadline() {
        let policy = RetryPolicy(maxAttempts: 20, deadline: .seconds(1), backoffInitial: .milliseconds(100), backoffMax: .seconds(10), maxWait: .seconds(10))
        var s = RetrySchedule(order: [0], policy: policy, start: t0)
        var now = t0
        var attempts = 0
        loop: while true {
            switch s.next(now: now, admit: open) {
            case .attempt(_, let wait):
                now = now + wait
                #expect(now <= t0 + .seconds(1))
                attempts += 1
                now = now + .milliseconds(10)  // the call itself
                s.failed(0, error: Self.serverError, now: now, unitRandom: 1)
            case .skip: continue
            case .giveUp: break loop
            }
        }
        #expect(attempts >= 3 && attempts < 20, "\(attempts) attempts")
    }

    @Test func coolingDownDeploymentsAreSkippedAndReportedOnce() {
        var s = RetrySchedule(order: [0, 1], policy: RetryPolicy(), start: t0)
        let admit: (Int) -> RetrySchedule.SkipReason? = { $0 == 0 ? .coolingDown(remaining: .seconds(9)) : nil }
        #expect(s.next(now: t0, admit: admit) == .skip(index: 0, reason: .coolingDown(remaining: .seconds(9))))
        #expect(s.next(now: t0, admit: admit) == .attempt(index: 1, wait: .zero))
        s.failed(1, error: Self.serverError, now: t0, unitRandom: 0)
        #expect(s.next(now: t0, admit: admit) == .attempt(index: 1, wait: .milliseconds(125)), "no second skip report for 0")
    }

    @Test func excludedDeploymentsAreNotTriedAgain() {
        var s = RetrySchedule(order: [0, 1], policy: RetryPolicy(), start: t0)
        _ = s.next(now: t0, admit: open)
        s.exclude(0)
        #expect(s.next(now: t0, admit: open) == .attempt(index: 1, wait: .zero))
        s.exclude(1)
        #expect(s.next(now: t0, admit: open) == .giveUp)
    }
}
