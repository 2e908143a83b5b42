import Testing
import SkillGateRouting
import SkillGateTestSupport

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(backoffInitial: .milliseconds(100), backoffMax: .milliseconds(1000))

    @Test(arguments: [(1, 100), (2, 200), (3, 400), (4, 800), (5, 1000), (12, 1000)])
    func backoffDoublesUpToTheCap(_ failures: Int, _ fullMs: Int) {
        #expect(policy.backoff(afterFailures: failures, unitRandom: 0.999_999) == .milliseconds(fullMs) ||
                abs(policy.backoff(afterFailures: failures, unitRandom: 0.999_999).resilienceMilliseconds - Double(fullMs)) < 0.01)
        #expect(policy.backoff(afterFailures: failures, unitRandom: 0) == .milliseconds(fullMs / 2))
    }

    @Test func jitterStaysWithinHalfAndFull() {
        var rng = SeededUnitRandom(seed: 7)
        var seen = Set<Int>()
        for _ in 0..<200 {
            let ms = policy.backoff(afterFailures: 3, unitRandom: rng.next()).resilienceMilliseconds
            #expect(ms >= 200 && ms <= 400)
            seen.insert(Int(ms))
        }
        #expect(seen.count > 50, "jitter must spread the retries")
    }

    @Test func noBackoffBeforeAnyFailure() {
        #expect(policy.backoff(afterFailures: 0, unitRandom: 0.5) == .zero)
    }
}

@Suite struct UnitRandomTests {
    @Test func staysInTheUnitIntervalAndSpreadsEvenly() {
        let r = UnitRandom(seed: 99)
        var buckets = [Int](repeating: 0, count: 10)
        for _ in 0..<10_000 {
            let x = r.next()
            #expect(x >= 0 && x < 1)
            buckets[Int(x * 10)] += 1
        }
        #expect(buckets.allSatisfy { abs($0 - 1000) < 150 }, "\(buckets)")
    }

    @Test func seedsDiffer() {
        #expect(UnitRandom().next() != UnitRandom().next())
    }
}
