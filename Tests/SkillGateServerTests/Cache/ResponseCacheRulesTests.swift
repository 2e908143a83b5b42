import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// What the response cache keeps and when a request reads it (decision 0140): only complete answers that passed the
/// answer checks; never errors, unusable answers, a stream the client left, agent runs; the request's own word
/// (`x-skillgate-cache`, `Cache-Control`); and nothing at all when the cache is off.
/// Serialized: each case starts a gateway and a double, and the machine's cores are shared with the rest of the suite.
@Suite(.serialized) struct ResponseCacheRulesTests {
    static let question = ResponseCacheGateway.chat("Invent a holiday")

    /// A whole OpenAI answer saying `text`, ending with `finish`.
    static func answer(_ text: String, finish: String = "stop") -> UpstreamDouble.Reply {
        .json(status: 200, body: Array(#"{"id":"chatcmpl-x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"\#(text)"},"finish_reason":"\#(finish)"}],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}"#.utf8), headers: [:])
    }

    @Test func noStoreNeitherReadsNorKeeps() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            let noStore: HTTPHeaders = ["x-skillgate-cache": "no-store"]
            let first = try await g.post(Self.question, headers: noStore)
            #expect(first.status == 200 && first.headers["x-skillgate-cache"] == "bypass")
            // Nothing was kept.
            #expect(try await g.post(Self.question).headers["x-skillgate-cache"] == "miss")
            // Something is kept now, and still not read.
            #expect(try await g.post(Self.question, headers: noStore).headers["x-skillgate-cache"] == "bypass")
            #expect(upstream.requestCount == 3)
            #expect(try await g.post(Self.question).headers["x-skillgate-cache"] == "hit")
            #expect(upstream.requestCount == 3)
        }
    }

    @Test func refreshAsksTheModelAndKeepsItsAnswer() async throws {
        try await ResponseCacheGateway.with([Self.answer("first answer"), Self.answer("second answer")]) { g, upstream in
            #expect(try await g.post(Self.question).content == "first answer")
            let refreshed = try await g.post(Self.question, headers: ["x-skillgate-cache": "refresh"])
            #expect(refreshed.headers["x-skillgate-cache"] == "refresh" && refreshed.content == "second answer")
            let hit = try await g.post(Self.question)
            #expect(hit.headers["x-skillgate-cache"] == "hit" && hit.content == "second answer")
            #expect(upstream.requestCount == 2)
        }
    }

    /// HTTP's own request directives mean the same: `no-store` bypasses, `no-cache` and `max-age=0` refresh; the stricter
    /// of two wins, and other directives change nothing.
    @Test(arguments: [("no-store", "bypass"), ("no-cache", "refresh"), ("max-age=0", "refresh"), ("No-Cache, no-store", "bypass"),
                      ("max-age=00", "refresh"), ("max-age=\"0\"", "refresh"), ("max-age=600", "hit"), ("no-transform", "hit")])
    func cacheControlIsHonoured(_ value: String, _ expected: String) async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            _ = try await g.post(Self.question)
            let r = try await g.post(Self.question, headers: ["cache-control": value])
            #expect(r.status == 200 && r.headers["x-skillgate-cache"] == expected, "\(value)")
            #expect(upstream.requestCount == (expected == "hit" ? 1 : 2), "\(value)")
        }
    }

    /// `max-age=N` takes no kept answer older than N seconds: older, it is a miss, the model is asked and its answer
    /// replaces the old one; younger, a hit (RFC 9111, 5.2.1.1).
    @Test func maxAgeTakesNoOlderAnswer() async throws {
        try await ResponseCacheGateway.with([Self.answer("first answer"), Self.answer("second answer")]) { g, upstream in
            #expect(try await g.post(Self.question).content == "first answer")
            g.clock.advance(30)
            let young = try await g.post(Self.question, headers: ["cache-control": "max-age=45"])
            #expect(young.headers["x-skillgate-cache"] == "hit" && young.content == "first answer")
            let old = try await g.post(Self.question, headers: ["cache-control": "max-age=\"20\""])
            #expect(old.headers["x-skillgate-cache"] == "miss" && old.content == "second answer")
            let replaced = try await g.post(Self.question, headers: ["cache-control": "max-age=20"])
            #expect(replaced.headers["x-skillgate-cache"] == "hit" && replaced.content == "second answer")
            #expect(upstream.requestCount == 2)
        }
    }

    /// A value the header does not take is a 400 in the surface's own shape, naming the header and what to send.
    @Test func anUnknownValueIsRefused() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            let openAI = try await g.post(Self.question, headers: ["x-skillgate-cache": "sometimes"])
            #expect(openAI.status == 400)
            #expect(openAI.json["error"]?["param"]?.stringValue == "x-skillgate-cache")
            let message = openAI.json["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("no-store") && message.contains("refresh") && message.contains("sometimes"), "\(message)")
            let anthropic = try await g.post(#"{"model":"light","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}"#, path: "/v1/messages",
                                             headers: ["x-skillgate-cache": "sometimes"])
            #expect(anthropic.status == 400 && anthropic.json["type"]?.stringValue == "error", "\(anthropic.text)")
            #expect(upstream.requestCount == 0)
        }
    }

    /// An error is not kept: the next request asks the model.
    @Test func anErrorIsNotKept() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.serverError, OpenAIRecordings.text]) { g, upstream in
            let failed = try await g.post(Self.question)
            #expect(failed.status >= 500 && failed.headers["x-skillgate-cache"] == "miss", "\(failed.text)")
            let answered = try await g.post(Self.question)
            #expect(answered.status == 200 && answered.headers["x-skillgate-cache"] == "miss")
            #expect(try await g.post(Self.question).headers["x-skillgate-cache"] == "hit")
            #expect(upstream.requestCount == 2)
        }
    }

    /// An answer that failed the answer checks (a call to a tool the model was not shown) is not kept.
    @Test func anUnusableAnswerIsNotKept() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.toolCalls]) { g, upstream in
            let first = try await g.post(Self.question)
            let second = try await g.post(Self.question)
            #expect(first.status == 502 && second.status == 502, "\(second.text)")
            #expect(second.headers["x-skillgate-cache"] == "miss" && upstream.requestCount == 2)
        }
    }

    /// An answer the model did not finish (a content filter's cut) is served, and not kept.
    @Test func anAnswerCutByAContentFilterIsNotKept() async throws {
        try await ResponseCacheGateway.with([Self.answer("partial", finish: "content_filter")]) { g, upstream in
            let first = try await g.post(Self.question), second = try await g.post(Self.question)
            #expect(first.status == 200 && first.content == "partial")
            #expect(second.headers["x-skillgate-cache"] == "miss" && upstream.requestCount == 2)
        }
    }

    /// A stream the client left is not kept, even when the upstream had sent the whole answer's text.
    @Test func aStreamTheClientLeftIsNotKept() async throws {
        let sse = OpenAIRecordings.bytes("test_run_stream_sync_streams_real_model.1.response.sse")
        // All the text at once, then a pause before the finish that the client does not wait out. (After the finish and
        // the usage the answer is complete, and its stream ends normally without `[DONE]`: decision 0154.)
        try await ResponseCacheGateway.with([.ssePaused(sse, after: 9, pause: .seconds(2)), OpenAIRecordings.streamedText]) { g, upstream in
            let port = g.server.boundPort, token = g.token
            let payload = ResponseCacheGateway.chat("Invent a holiday", #""stream":true"#)
            let read = try await RawSocket.run {
                let socket = try RawSocket(port: port, receiveTimeout: 10)
                socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                            + "Content-Length: \(payload.utf8.count)\r\n\r\n\(payload)")
                // Not waiting for the finish: it is held until the usage or the end comes (decision 0146).
                let seen = socket.read(until: "London", count: 1)
                socket.close()
                return seen
            }
            #expect(read.contains("London"), "\(read.suffix(300))")
            let lines = await g.logLines(atLeast: 1)
            #expect(lines.first?["status"]?.intValue == 499, "\(lines)")
            let again = try await g.stream(ResponseCacheGateway.chat("Invent a holiday", #""stream":true"#))
            #expect(again.status == 200 && again.headers["x-skillgate-cache"] == "miss")
            #expect(upstream.requestCount == 2)
        }
    }

    /// A stream relayed to its end is kept (the same double, a client that stays).
    @Test func aStreamRelayedToItsEndIsKept() async throws {
        let sse = OpenAIRecordings.bytes("test_run_stream_sync_streams_real_model.1.response.sse")
        try await ResponseCacheGateway.with([.ssePaused(sse, after: 11, pause: .milliseconds(200))]) { g, upstream in
            let first = try await g.stream(ResponseCacheGateway.chat("Invent a holiday", #""stream":true"#))
            let second = try await g.stream(ResponseCacheGateway.chat("Invent a holiday", #""stream":true"#))
            #expect(first.headers["x-skillgate-cache"] == "miss" && second.headers["x-skillgate-cache"] == "hit")
            #expect(ResponseCacheGatewayTests.streamedText(second.text) == "The capital of the UK is London.")
            #expect(upstream.requestCount == 1)
        }
    }

    /// `/v1/agent` runs are never answered from the cache nor kept (skills have side effects); the reply says so.
    @Test func agentRunsBypassTheCache() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.streamedText]) { g, upstream in
            let body = #"{"messages":[{"role":"user","content":"Invent a holiday"}]}"#
            let first = try await g.stream(body, path: "/v1/agent")
            let second = try await g.stream(body, path: "/v1/agent")
            #expect(first.status == 200 && second.text.contains("run.completed"), "\(second.text.suffix(300))")
            #expect(first.headers["x-skillgate-cache"] == "bypass" && second.headers["x-skillgate-cache"] == "bypass")
            #expect(upstream.requestCount == 2)
        }
    }

    /// A scenario whose cache is off, and a gateway without one: no header, no log field, no lookup.
    @Test func withTheCacheOffNothingIsLookedUp() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text], responseCache: nil, scenarios: #"{"chat":{}}"#) { g, upstream in
            #expect(g.server.services.responseCache == nil)
            let first = try await g.post(Self.question), second = try await g.post(Self.question)
            #expect(first.status == 200 && second.status == 200)
            #expect(first.headers["x-skillgate-cache"] == nil && second.headers["x-skillgate-cache"] == nil)
            #expect(upstream.requestCount == 2)
            // The header is not read either: a value it would refuse is left alone.
            #expect(try await g.post(Self.question, headers: ["x-skillgate-cache": "sometimes"]).status == 200)
            let lines = await g.logLines(atLeast: 3)
            #expect(lines.allSatisfy { $0["cache"] == nil }, "\(lines)")
            #expect(try await g.metric(#"skillgate_response_cache_requests_total{result="miss"}"#) == nil)
        }
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            let uncached: HTTPHeaders = ["x-skillgate-scenario": "uncached"]
            let first = try await g.post(Self.question, headers: uncached), second = try await g.post(Self.question, headers: uncached)
            #expect(first.headers["x-skillgate-cache"] == nil && second.headers["x-skillgate-cache"] == nil)
            #expect(upstream.requestCount == 2)
            #expect(g.server.services.responseCache?.statistics == ResponseCache.Statistics())
        }
    }
}
