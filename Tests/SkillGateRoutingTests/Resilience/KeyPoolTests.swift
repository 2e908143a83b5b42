import Testing
import SkillGateRouting
import SkillGateTestSupport

/// Spreading calls over a provider's keys and cooling down the keys it refuses.
@Suite struct KeyPoolTests {
    let members = ["K", "K_2", "K_3"]

    @Test func sequentialCallsRotateOverEveryKey() {
        let pool = KeyPool(cooldown: .seconds(30), clock: ManualClock())
        var used: [String] = []
        for _ in 0..<6 {
            let lease = pool.acquire(members)
            used.append(lease.name)
            lease.release()
        }
        #expect(used.sorted() == ["K", "K", "K_2", "K_2", "K_3", "K_3"])
    }

    @Test func concurrentCallsGoToTheKeyWithFewestInFlight() {
        let pool = KeyPool(cooldown: .seconds(30), clock: ManualClock())
        let held = (0..<3).map { _ in pool.acquire(members) }
        #expect(Set(held.map(\.name)) == Set(members), "three calls in flight use three keys")
        held[1].release()
        let next = pool.acquire(members)
        #expect(next.name == held[1].name, "the only key with nothing in flight is taken")
        #expect(pool.inFlight(next.name) == 1)
        for lease in held { lease.release() }
        next.release()
        #expect(members.allSatisfy { pool.inFlight($0) == 0 })
    }

    @Test(arguments: [401, 429])
    func aRefusedKeyCoolsDownAndTheOthersCarryOn(status: Int) {
        let clock = ManualClock()
        let pool = KeyPool(cooldown: .seconds(30), clock: clock)
        let first = pool.acquire(members)
        #expect(first.reportFailure(status: status, retryAfter: nil), "two other keys are ready")
        first.release()
        for _ in 0..<10 {
            let lease = pool.acquire(members)
            #expect(lease.name != first.name)
            lease.release()
        }
        #expect(pool.remainingCooldown(first.name) == .seconds(30))
        clock.advance(by: .seconds(30))
        #expect(pool.remainingCooldown(first.name) == nil)
        #expect(pool.readyCount(members) == 3)
    }

    /// A refusal the provider's error mapping marks as the key's (a 403, Gemini's 400 `API_KEY_INVALID`) cools the key
    /// down whatever its status (decision 0115).
    @Test func aRefusalMarkedAsTheKeysCoolsItDown() {
        let pool = KeyPool(cooldown: .seconds(30), clock: ManualClock())
        let lease = pool.acquire(members)
        #expect(lease.reportFailure(refusesKey: true, retryAfter: nil))
        #expect(pool.remainingCooldown(lease.name) == .seconds(30))
        let other = pool.acquire(members)
        #expect(!other.reportFailure(refusesKey: false, retryAfter: nil))
        #expect(pool.remainingCooldown(other.name) == nil)
    }

    @Test(arguments: [400, 404, 500, 503])
    func otherFailuresLeaveTheKeyAlone(status: Int) {
        let pool = KeyPool(cooldown: .seconds(30), clock: ManualClock())
        let lease = pool.acquire(members)
        #expect(!lease.reportFailure(status: status, retryAfter: 5))
        #expect(pool.remainingCooldown(lease.name) == nil)
    }

    @Test func retryAfterSetsTheCooldownAndIsClamped() {
        let pool = KeyPool(cooldown: .seconds(30), clock: ManualClock())
        let a = pool.acquire(members), b = pool.acquire(members), c = pool.acquire(members)
        a.reportFailure(status: 429, retryAfter: 2.5)
        b.reportFailure(status: 429, retryAfter: 1e300)
        c.reportFailure(status: 429, retryAfter: -.infinity)
        #expect(pool.remainingCooldown(a.name) == .milliseconds(2500))
        #expect(pool.remainingCooldown(b.name) == .seconds(3600), "an absurd Retry-After parks the key for an hour at most")
        #expect(pool.remainingCooldown(c.name) == .seconds(30), "a meaningless one falls back to the pool's cooldown")
    }

    @Test func whenEveryKeyCoolsDownTheOneRecoveringFirstIsUsed() {
        let clock = ManualClock()
        let pool = KeyPool(cooldown: .seconds(30), clock: clock)
        let leases = members.map { _ in pool.acquire(members) }
        let waits: [Double] = [20, 5, 10]
        var last = true
        for (lease, wait) in zip(leases, waits) {
            last = lease.reportFailure(status: 429, retryAfter: wait)
            lease.release()
        }
        #expect(!last, "no key is ready after the third refusal")
        let fallback = pool.acquire(members)
        #expect(fallback.name == leases[1].name)
    }

    @Test func aSingleKeyPoolNeverOffersAnotherKey() {
        let pool = KeyPool(cooldown: .seconds(30), clock: ManualClock())
        let lease = pool.acquire(["ONLY"])
        #expect(!lease.reportFailure(status: 429, retryAfter: nil))
        #expect(pool.acquire(["ONLY"]).name == "ONLY")
    }

    /// A cooldown belongs to the secret that was refused: once the operator sets a new secret under the name, the key is
    /// ready at once; the old secret stays cooled (decision 0110).
    @Test func aNewSecretUnderACooledNameIsReadyAtOnce() {
        let clock = ManualClock()
        let pool = KeyPool(cooldown: .seconds(60), clock: clock)
        let before = [KeyPool.Member(name: "K", version: 1), KeyPool.Member(name: "K_2", version: 7)]
        var refusedKey: KeyLease? = pool.acquire(before)
        while refusedKey?.name != "K" {
            refusedKey?.release()
            refusedKey = pool.acquire(before)
        }
        _ = refusedKey?.reportFailure(status: 401, retryAfter: nil)
        refusedKey?.release()
        #expect(pool.readyCount(before) == 1, "the refused secret cools down")
        for _ in 0..<4 {
            let lease = pool.acquire(before)
            #expect(lease.name == "K_2")
            lease.release()
        }
        let rotated = [KeyPool.Member(name: "K", version: 2), KeyPool.Member(name: "K_2", version: 7)]
        #expect(pool.readyCount(rotated) == 2, "the new secret under K is ready")
        var names: [String] = []
        for _ in 0..<4 {
            let lease = pool.acquire(rotated)
            names.append(lease.name)
            lease.release()
        }
        #expect(names.filter { $0 == "K" }.count == 2, "\(names)")
        // Names without versions keep the old rule: the name is cooling whatever its secret.
        #expect(pool.readyCount(["K", "K_2"]) == 1)
    }
}
