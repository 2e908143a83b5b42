import Foundation
import Testing
import SkillGateCore
import SkillGateProviders
@testable import SkillGateServer

/// The response cache's entries (decision 0140): least recently used first out past the bound in bytes, expiry, an
/// entry too large for the bound, replacement.
@Suite struct ResponseCacheEntriesTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let target = RouteTarget(provider: ProviderSpec(id: "up", displayName: "up", wireFormat: .openAIChat, baseURL: "http://127.0.0.1:1/v1",
                                                           auth: .bearer, models: []),
                                    model: ModelSpec(id: "m", tier: .light, contextWindow: 8000))

    static func key(_ n: Int, scope: String = "tok_a") -> ResponseCacheKey { ResponseCacheKey(scope: scope, digest: SIMD4(UInt64(n), 0, 0, 0)) }

    /// An answer of about `kib` KiB.
    static func answer(_ kib: Int, _ text: String = "x", at time: Date = t0) -> CachedAnswer {
        CachedAnswer(ChatResponse(id: "chatcmpl-up", model: "m", content: [.text(String(repeating: text, count: kib << 10))], finishReason: .stop),
                     from: target, at: time)
    }

    @Test func theLeastRecentlyUsedGoFirstPastTheBound() {
        var entries = ResponseCacheEntries(maxBytes: 100 << 10)
        let later = Self.t0.addingTimeInterval(60)
        for n in 0..<4 { #expect(entries.keep(Self.answer(11), under: Self.key(n), until: later, now: Self.t0).kept) }
        // 0 is used again: 1 is now the least recently used.
        guard case .hit = entries.find(Self.key(0), at: Self.t0) else { Issue.record("0 not found"); return }
        var removed = ResponseCacheEntries.Removed()
        for n in 4..<9 {
            let (kept, r) = entries.keep(Self.answer(11), under: Self.key(n), until: later, now: Self.t0)
            #expect(kept)
            removed.evicted += r.evicted
        }
        // 9 entries of ~11.3 KiB do not fit in 100 KiB: one had to go, the least recently used (1), not 0.
        #expect(entries.bytes <= 100 << 10 && removed.evicted == 1)
        guard case .none = entries.find(Self.key(1), at: Self.t0) else { Issue.record("1 was kept"); return }
        guard case .hit = entries.find(Self.key(0), at: Self.t0) else { Issue.record("0 was evicted"); return }
        guard case .hit = entries.find(Self.key(2), at: Self.t0) else { Issue.record("2 was evicted before 1"); return }
        guard case .hit = entries.find(Self.key(8), at: Self.t0) else { Issue.record("8 was evicted"); return }
        #expect(entries.count == 8)
    }

    @Test func anEntryPastItsTimeIsRemoved() {
        var entries = ResponseCacheEntries(maxBytes: 1 << 20)
        _ = entries.keep(Self.answer(1), under: Self.key(1), until: Self.t0.addingTimeInterval(10), now: Self.t0)
        guard case .hit = entries.find(Self.key(1), at: Self.t0.addingTimeInterval(9.9)) else { Issue.record("expired early"); return }
        guard case .expired = entries.find(Self.key(1), at: Self.t0.addingTimeInterval(10)) else { Issue.record("not expired"); return }
        #expect(entries.count == 0 && entries.bytes == 0)
        guard case .none = entries.find(Self.key(1), at: Self.t0) else { Issue.record("still there"); return }
    }

    @Test func expiredEntriesAtTheEndAreRemovedWhenOneIsKept() {
        var entries = ResponseCacheEntries(maxBytes: 1 << 20)
        _ = entries.keep(Self.answer(1), under: Self.key(1), until: Self.t0.addingTimeInterval(10), now: Self.t0)
        _ = entries.keep(Self.answer(1), under: Self.key(2), until: Self.t0.addingTimeInterval(100), now: Self.t0)
        let (_, removed) = entries.keep(Self.answer(1), under: Self.key(3), until: Self.t0.addingTimeInterval(100), now: Self.t0.addingTimeInterval(20))
        #expect(removed == ResponseCacheEntries.Removed(evicted: 0, expired: 1) && entries.count == 2)
    }

    @Test func anAnswerLargerThanAnEighthOfTheBoundIsNotKept() {
        var entries = ResponseCacheEntries(maxBytes: 64 << 10)
        #expect(!entries.keep(Self.answer(9), under: Self.key(1), until: Self.t0.addingTimeInterval(10), now: Self.t0).kept)
        #expect(entries.keep(Self.answer(7), under: Self.key(2), until: Self.t0.addingTimeInterval(10), now: Self.t0).kept)
        #expect(entries.count == 1)
    }

    @Test func keepingAKeyAgainReplacesItsAnswer() {
        var entries = ResponseCacheEntries(maxBytes: 1 << 20)
        let later = Self.t0.addingTimeInterval(10)
        _ = entries.keep(Self.answer(2, "a"), under: Self.key(1), until: later, now: Self.t0)
        _ = entries.keep(Self.answer(1, "b"), under: Self.key(1), until: later, now: Self.t0)
        #expect(entries.count == 1 && entries.bytes == Self.answer(1, "b").bytes)
        guard case .hit(let answer) = entries.find(Self.key(1), at: Self.t0) else { Issue.record("lost"); return }
        #expect(answer.response.text.hasPrefix("b"))
    }

    /// The same digest of another token is another entry.
    @Test func aKeyIsItsTokensOnly() {
        var entries = ResponseCacheEntries(maxBytes: 1 << 20)
        _ = entries.keep(Self.answer(1), under: Self.key(1, scope: "tok_a"), until: Self.t0.addingTimeInterval(10), now: Self.t0)
        guard case .none = entries.find(Self.key(1, scope: "tok_b"), at: Self.t0) else { Issue.record("served to another token"); return }
    }

    /// A kept answer has no provider id (a hit gets its own), and replays as the stream events that accumulate to it.
    @Test func aKeptAnswerReplaysAsTheEventsOfItself() {
        let response = ChatResponse(id: "msg_upstream", model: "m", content: [
            .thinking(Thinking(text: "let me see", signature: "sig")), .thinking(Thinking(text: "", redactedData: "enc")),
            .text("Calling."), .toolCall(ToolCall(id: "call_1", name: "lookup", arguments: #"{"q":1}"#, signature: "ts")),
        ], finishReason: .toolCalls, usage: Usage(inputTokens: 5, outputTokens: 7))
        let kept = CachedAnswer(response, from: Self.target, at: Self.t0)
        #expect(kept.response.id.isEmpty)
        var accumulated = ChatResponseAccumulator()
        for event in kept.events(id: "msg_fresh", model: "up/m") { accumulated.apply(event) }
        var expected = response
        expected.id = "msg_fresh"
        expected.model = "up/m"
        #expect(accumulated.response == expected)
        #expect(kept.age(at: Self.t0.addingTimeInterval(12.7)) == 12)
    }
}
