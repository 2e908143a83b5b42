import Testing
import SkillGateCore

/// A background writer's wait between tries: its interval while writes work, doubling at each failure in a row up to
/// the maximum, and the interval again after a success (decision 0097).
@Suite struct RetryBackoffTests {
    @Test func theWaitDoublesUpToTheMaximumAndResetsOnSuccess() {
        var backoff = RetryBackoff(interval: .milliseconds(25), maximum: .seconds(5))
        #expect(backoff.wait == .milliseconds(25))
        var waits: [Duration] = []
        for _ in 0..<10 {
            backoff.failed()
            waits.append(backoff.wait)
        }
        #expect(waits.prefix(4) == [.milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400)])
        #expect(waits.last == .seconds(5))
        for _ in 0..<1000 { backoff.failed() }
        #expect(backoff.wait == .seconds(5), "many failures stay at the maximum")
        backoff.succeeded()
        #expect(backoff.wait == .milliseconds(25))
    }

    @Test func aZeroIntervalStillBacksOffAndAMaximumBelowTheIntervalIsTheInterval() {
        var zero = RetryBackoff(interval: .zero, maximum: .seconds(1))
        #expect(zero.wait == .zero)
        zero.failed()
        #expect(zero.wait == .milliseconds(2))
        for _ in 0..<30 { zero.failed() }
        #expect(zero.wait == .seconds(1))
        var slow = RetryBackoff(interval: .seconds(10), maximum: .seconds(5))
        slow.failed()
        #expect(slow.wait == .seconds(10))
    }
}
