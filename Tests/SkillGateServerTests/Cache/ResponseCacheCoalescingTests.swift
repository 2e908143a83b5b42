import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// Request coalescing (`response_cache.coalesce_seconds`, decision 0172) through a real gateway: identical requests of
/// one token that arrive while the first is asking a model wait for its answer and are answered from the cache; a
/// first request that fails lets them ask themselves; a wait is bounded; and without the setting each asks the model.
@Suite(.serialized) struct ResponseCacheCoalescingTests {
    static let question = "Invent a holiday"
    static let coalescing = #"{"ttl_seconds":60,"coalesce_seconds":20}"#

    /// Sends `count` identical requests: the first alone, the others once the upstream has it (so they arrive while it
    /// is being answered: the tests' first answers take 1.5 s), all at once. Returns the replies in that order (the
    /// first, then the others).
    static func identical(_ g: ResponseCacheGateway, _ upstream: UpstreamDouble, count: Int, stream: Bool = false)
        async throws -> [(status: Int, cache: String?, text: String)] {
        let body = ResponseCacheGateway.chat(Self.question, stream ? #""stream":true"# : "")
        func send() async throws -> (status: Int, cache: String?, text: String) {
            if stream {
                let r = try await g.stream(body)
                return (r.status, r.headers["x-skillgate-cache"], r.text)
            }
            let r = try await g.post(body)
            return (r.status, r.headers["x-skillgate-cache"], r.text)
        }
        async let first = send()
        let asked = ContinuousClock.now
        while upstream.requestCount == 0, ContinuousClock.now - asked < .seconds(30) { try await Task.sleep(for: .milliseconds(5)) }
        let others = try await withThrowingTaskGroup(of: (status: Int, cache: String?, text: String).self) { group in
            for _ in 1..<count { group.addTask { try await send() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        return [try await first] + others
    }

    @Test(arguments: [false, true])
    func identicalRequestsUnderWayAskTheModelOnce(_ stream: Bool) async throws {
        let reply: UpstreamDouble.Reply = stream ? OpenAIRecordings.streamedText : OpenAIRecordings.text
        try await ResponseCacheGateway.with([.delayed(.milliseconds(1500), reply)], responseCache: Self.coalescing) { g, upstream in
            let replies = try await Self.identical(g, upstream, count: 4, stream: stream)
            #expect(upstream.requestCount == 1, "the three that came while the first was answered waited for its answer")
            #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.map { "\($0.status) \($0.text.prefix(200))" })")
            #expect(replies.map(\.cache) == ["miss", "hit", "hit", "hit"])
            let phrase = stream ? "[DONE]" : "chat.completion"
            #expect(replies.allSatisfy { $0.text.contains(phrase) })
            let lines = await g.logLines(atLeast: 4)
            let waited = lines.compactMap { $0["cache_wait_ms"]?.doubleValue }
            #expect(waited.count == 3 && waited.allSatisfy { $0 > 0 && $0 < 20_000 }, "\(lines)")
            #expect(lines.filter { $0["cache"]?.stringValue == "hit" }.count == 3)
            #expect(try await g.metric(#"skillgate_response_cache_requests_total{result="hit"}"#) == 3)
            #expect(try await g.metric(#"skillgate_response_cache_requests_total{result="miss"}"#) == 1)
            #expect(try await g.metric(#"skillgate_response_cache_waits_total{result="hit"}"#) == 3)
        }
    }

    /// The first request's answer is a failure (not kept): the ones that waited for it ask the model themselves. Their
    /// own answers take 800 ms, so each looks the answer up again before the other's is kept (woken together, one
    /// scheduled a little later would otherwise find the other's answer: a hit, which is right, but not this case).
    @Test func whenTheFirstFailsTheOthersAskThemselves() async throws {
        let failure = UpstreamDouble.Reply.delayed(.milliseconds(1500), .json(status: 400, body: Array(
            #"{"error":{"message":"Invalid 'messages': too long.","type":"invalid_request_error","param":"messages","code":null}}"#.utf8), headers: [:]))
        try await ResponseCacheGateway.with([failure, .delayed(.milliseconds(800), OpenAIRecordings.text)], responseCache: Self.coalescing) { g, upstream in
            let replies = try await Self.identical(g, upstream, count: 3)
            #expect(replies[0].status == 400, "\(replies[0].text)")
            #expect(replies.dropFirst().allSatisfy { $0.status == 200 && $0.text.contains("chat.completion") }, "\(replies.map { "\($0.status) \($0.text.prefix(200))" })")
            #expect(upstream.requestCount == 3, "each that waited asked for itself once the first failed")
            let lines = await g.logLines(atLeast: 3)
            #expect(lines.compactMap { $0["cache_wait_ms"]?.doubleValue }.count == 2, "\(lines)")
            #expect(try await g.metric(#"skillgate_response_cache_waits_total{result="miss"}"#) == 2)
        }
    }

    /// A request waits no longer than `coalesce_seconds` (1 s here) for an answer that takes 4 s: it then asks itself.
    @Test func aWaitEndsAtItsBound() async throws {
        try await ResponseCacheGateway.with([.delayed(.seconds(4), OpenAIRecordings.text), OpenAIRecordings.text],
                                            responseCache: #"{"ttl_seconds":60,"coalesce_seconds":1}"#) { g, upstream in
            let replies = try await Self.identical(g, upstream, count: 2)
            #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.map { "\($0.status) \($0.text.prefix(200))" })")
            #expect(replies.map(\.cache) == ["miss", "miss"] && upstream.requestCount == 2)
            let waited = await g.logLines(atLeast: 2).compactMap { $0["cache_wait_ms"]?.doubleValue }
            // At its bound (a loaded machine may wake it late), and long before the first's answer came.
            #expect(waited.count == 1 && waited[0] >= 990 && waited[0] < 3_900, "\(waited)")
        }
    }

    /// Without `coalesce_seconds` (the default) each request that misses asks the model, as before.
    @Test func withoutTheSettingEachAsks() async throws {
        try await ResponseCacheGateway.with([.delayed(.milliseconds(800), OpenAIRecordings.text)]) { g, upstream in
            let replies = try await Self.identical(g, upstream, count: 3)
            #expect(replies.allSatisfy { $0.status == 200 && $0.cache == "miss" })
            #expect(upstream.requestCount == 3)
            #expect(await g.logLines(atLeast: 3).allSatisfy { $0["cache_wait_ms"] == nil })
        }
    }

    /// Another token's identical request is another key: it neither waits for nor is answered by the first.
    @Test func anotherTokensRequestDoesNotWait() async throws {
        try await ResponseCacheGateway.with([.delayed(.seconds(2), OpenAIRecordings.text), OpenAIRecordings.text],
                                            responseCache: Self.coalescing) { g, upstream in
            let body = ResponseCacheGateway.chat(Self.question)
            async let first = g.post(body)
            let asked = ContinuousClock.now
            while upstream.requestCount == 0, ContinuousClock.now - asked < .seconds(30) { try await Task.sleep(for: .milliseconds(5)) }
            let other = try await g.post(body, token: g.otherToken)
            let firstReply = try await first
            #expect(other.status == 200 && other.headers["x-skillgate-cache"] == "miss" && firstReply.status == 200)
            #expect(upstream.requestCount == 2)
            #expect(await g.logLines(atLeast: 2).allSatisfy { $0["cache_wait_ms"] == nil })
        }
    }
}
