import Testing
import SkillGateCore
@testable import SkillGateServer

/// The answers under way that coalescing requests wait for (decision 0172): one leads a key at a time, the lease's end
/// wakes every follower and frees the key, and a wait ends at its bound or when its task is cancelled.
@Suite struct ResponseCacheFillsTests {
    static let key = ResponseCacheKey(scope: "tok_a", digest: SIMD4(1, 2, 3, 4))

    /// The lease of a claim that led (nil if it followed): returned, not bound, so dropping it ends the fill.
    static func lead(_ fills: ResponseCacheFills, _ key: ResponseCacheKey = key) -> ResponseCacheFillLease? {
        if case .lead(let lease) = fills.claim(key) { return lease }
        return nil
    }

    /// The fill a claim follows (nil if it led).
    static func follow(_ fills: ResponseCacheFills) -> ResponseCacheFill? {
        if case .follow(let fill) = fills.claim(key) { return fill }
        return nil
    }

    @Test func oneLeadsAndTheOthersFollowUntilTheLeaseGoes() {
        let fills = ResponseCacheFills()
        var lease = Self.lead(fills)
        let fill = Self.follow(fills)
        #expect(lease != nil && fill != nil && fill === lease?.fill && fills.count == 1)
        var other = Self.lead(fills, ResponseCacheKey(scope: "tok_b", digest: SIMD4(1, 2, 3, 4)))
        #expect(other != nil, "another token's key is a fill of its own")
        lease = nil
        other = nil
        #expect(fills.count == 0, "the leases' end freed the keys")
        #expect(Self.lead(fills) != nil, "the next claim after the end leads")
    }

    @Test func followersWakeWhenTheLeaseGoes() async throws {
        let fills = ResponseCacheFills()
        var lease = Self.lead(fills)
        let fill = try #require(Self.follow(fills))
        let started = ContinuousClock.now
        async let ended = fill.wait(upTo: .seconds(30))
        try? await Task.sleep(for: .milliseconds(100))
        #expect(lease != nil)
        lease = nil
        #expect(await ended, "the wait ended with the fill")
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(await fill.wait(upTo: .seconds(30)), "a wait on an ended fill returns at once")
    }

    @Test func aWaitEndsAtItsBound() async {
        let fills = ResponseCacheFills()
        let lease = Self.lead(fills)
        guard let fill = Self.follow(fills) else { Issue.record("a second claim led"); return }
        let started = ContinuousClock.now
        #expect(await fill.wait(upTo: .milliseconds(200)) == false)
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(190) && took < .seconds(20), "\(took)")
        withExtendedLifetime(lease) {}
    }

    @Test func aCancelledWaitEndsAtOnce() async {
        let fills = ResponseCacheFills()
        let lease = Self.lead(fills)
        guard let fill = Self.follow(fills) else { Issue.record("a second claim led"); return }
        let started = ContinuousClock.now
        let waiter = Task { await fill.wait(upTo: .seconds(60)) }
        try? await Task.sleep(for: .milliseconds(100))
        waiter.cancel()
        #expect(await waiter.value == false)
        #expect(ContinuousClock.now - started < .seconds(30), "the cancelled wait went on")
        withExtendedLifetime(lease) {}
    }
}
