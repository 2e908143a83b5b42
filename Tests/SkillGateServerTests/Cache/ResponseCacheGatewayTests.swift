import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// The exact-match response cache through a real gateway in front of an OpenAI-format double that counts its calls
/// (decision 0140): what is a hit, what is a miss, whole and streamed, time to live and the bound in bytes.
/// Serialized: each case starts a gateway and a double, and the machine's cores are shared with the rest of the suite.
@Suite(.serialized) struct ResponseCacheGatewayTests {
    static let question = "Invent a holiday"

    @Test func aRepeatIsAHitWithOneUpstreamCall() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            let first = try await g.post(ResponseCacheGateway.chat(Self.question))
            let second = try await g.post(ResponseCacheGateway.chat(Self.question))
            #expect(first.status == 200 && second.status == 200, "\(second.text)")
            #expect(upstream.requestCount == 1)
            #expect(first.headers["x-skillgate-cache"] == "miss" && first.headers["age"] == nil)
            #expect(second.headers["x-skillgate-cache"] == "hit" && second.headers["age"] == "0")
            let a = first.json, b = second.json
            #expect(first.content != nil && first.content == second.content)
            #expect(second.firstChoice?["finish_reason"]?.stringValue == "stop")
            #expect(b["model"]?.stringValue == "up/m" && second.headers["x-skillgate-model"] == "up/m")
            // A fresh id and `created`, as any answer has; the upstream's id was the first answer's.
            let id = try #require(b["id"]?.stringValue)
            #expect(id.hasPrefix("chatcmpl-") && id != a["id"]?.stringValue && b["created"]?.intValue != nil, "\(id)")
            #expect(second.headers["x-request-id"].map { id.hasSuffix($0.dropFirst(4)) } == true)
        }
    }

    /// A change to what the model is asked, or to who asks, is another entry.
    static let variants: [(name: String, body: String, headers: HTTPHeaders, otherToken: Bool)] = [
        ("temperature", ResponseCacheGateway.chat(question, #""temperature":0.2"#), [:], false),
        ("max_tokens", ResponseCacheGateway.chat(question, #""max_tokens":50"#), [:], false),
        ("stop", ResponseCacheGateway.chat(question, #""stop":["\n"]"#), [:], false),
        ("tools", ResponseCacheGateway.chat(question, #""tools":[{"type":"function","function":{"name":"lookup","parameters":{"type":"object","properties":{}}}}]"#), [:], false),
        ("tool_choice", ResponseCacheGateway.chat(question, #""tools":[{"type":"function","function":{"name":"lookup","parameters":{"type":"object","properties":{}}}}],"tool_choice":"none""#), [:], false),
        ("response_format", ResponseCacheGateway.chat(question, #""response_format":{"type":"json_object"}"#), [:], false),
        ("seed", ResponseCacheGateway.chat(question, #""seed":7"#), [:], false),
        ("model", #"{"model":"strong","messages":[{"role":"user","content":"\#(question)"}]}"#, [:], false),
        ("messages", ResponseCacheGateway.chat(question + "!"), [:], false),
        ("user", ResponseCacheGateway.chat(question, #""user":"end-user-2""#), [:], false),
        ("scenario", ResponseCacheGateway.chat(question), ["x-skillgate-scenario": "other"], false),
        ("token", ResponseCacheGateway.chat(question), [:], true),
    ]

    @Test(arguments: 0..<12)
    func aChangeIsAMiss(_ index: Int) async throws {
        let variant = Self.variants[index]
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            let first = try await g.post(ResponseCacheGateway.chat(Self.question))
            let changed = try await g.post(variant.body, token: variant.otherToken ? g.otherToken : nil, headers: variant.headers)
            #expect(first.status == 200 && changed.status == 200, "\(variant.name): \(changed.text)")
            #expect(changed.headers["x-skillgate-cache"] == "miss", "\(variant.name)")
            #expect(upstream.requestCount == 2, "\(variant.name)")
            // Each is an entry of its own: asked again, it is a hit.
            let again = try await g.post(variant.body, token: variant.otherToken ? g.otherToken : nil, headers: variant.headers)
            #expect(again.headers["x-skillgate-cache"] == "hit" && upstream.requestCount == 2, "\(variant.name)")
        }
    }

    /// The tools in the key are those the model is shown, after the scenario's cut: two requests whose tool lists differ
    /// only in tools the scenario removes are one entry.
    @Test func theToolsInTheKeyAreThoseShownAfterTheCut() async throws {
        func tools(_ names: [String]) -> String {
            #""tools":["# + names.map { #"{"type":"function","function":{"name":"\#($0)","parameters":{"type":"object","properties":{}}}}"# }
                .joined(separator: ",") + "]"
        }
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            let cut: HTTPHeaders = ["x-skillgate-scenario": "cut"]
            let first = try await g.post(ResponseCacheGateway.chat(Self.question, tools(["lookup", "delete_file"])), headers: cut)
            let second = try await g.post(ResponseCacheGateway.chat(Self.question, tools(["lookup", "create_file"])), headers: cut)
            #expect(first.status == 200 && second.headers["x-skillgate-cache"] == "hit", "\(second.text)")
            #expect(upstream.requestCount == 1)
            let shown = upstream.requests[0].json?["tools"] as? [[String: Any]]
            #expect(shown?.count == 1)
        }
    }

    /// One question through Chat Completions and then Messages is one entry: answers are kept in the wire-neutral model
    /// and written in each request's own shape.
    @Test func theSameQuestionThroughAnotherSurfaceIsAHit() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            let question = #""max_tokens":256,"messages":[{"role":"user","content":"\#(Self.question)"}]"#
            let openAI = try await g.post(#"{"model":"light",\#(question)}"#)
            let anthropic = try await g.post(#"{"model":"light",\#(question)}"#, path: "/v1/messages")
            #expect(openAI.status == 200 && anthropic.status == 200, "\(anthropic.text)")
            #expect(anthropic.headers["x-skillgate-cache"] == "hit" && upstream.requestCount == 1)
            let message = anthropic.json
            #expect(message["type"]?.stringValue == "message" && message["stop_reason"]?.stringValue == "end_turn", "\(anthropic.text)")
            #expect(message["id"]?.stringValue?.hasPrefix("msg_") == true)
            #expect(message["content"]?.arrayValue?.first?["text"]?.stringValue == openAI.content)
        }
    }

    @Test func aWholeAnswerIsReplayedAsAStream() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            let whole = try await g.post(ResponseCacheGateway.chat(Self.question))
            let streamed = try await g.stream(ResponseCacheGateway.chat(Self.question, #""stream":true"#))
            #expect(whole.status == 200 && streamed.status == 200)
            #expect(streamed.headers["x-skillgate-cache"] == "hit" && streamed.headers["content-type"] == "text/event-stream")
            #expect(upstream.requestCount == 1)
            let text = try #require(whole.content)
            #expect(Self.streamedText(streamed.text) == text)
            #expect(streamed.text.contains(#""finish_reason":"stop""#) && streamed.text.hasSuffix("data: [DONE]\n\n"))
        }
    }

    @Test func aStreamedAnswerIsServedWhole() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.streamedText]) { g, upstream in
            let streamed = try await g.stream(ResponseCacheGateway.chat(Self.question, #""stream":true"#))
            let whole = try await g.post(ResponseCacheGateway.chat(Self.question))
            #expect(streamed.status == 200 && whole.status == 200, "\(whole.text)")
            #expect(streamed.headers["x-skillgate-cache"] == "miss" && whole.headers["x-skillgate-cache"] == "hit")
            #expect(upstream.requestCount == 1)
            #expect(whole.content == "The capital of the UK is London.")
            #expect(whole.json["usage"]?["completion_tokens"]?.intValue == 9)
        }
    }

    @Test func anEntryExpiresAfterItsTimeToLive() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            _ = try await g.post(ResponseCacheGateway.chat(Self.question))
            g.clock.advance(59)
            let fresh = try await g.post(ResponseCacheGateway.chat(Self.question))
            #expect(fresh.headers["x-skillgate-cache"] == "hit" && fresh.headers["age"] == "59")
            g.clock.advance(1)
            let expired = try await g.post(ResponseCacheGateway.chat(Self.question))
            #expect(expired.headers["x-skillgate-cache"] == "miss" && upstream.requestCount == 2)
            #expect(try await g.metric(#"skillgate_response_cache_evictions_total{reason="expired"}"#) == 1)
            // The fresh answer is kept again from now.
            let again = try await g.post(ResponseCacheGateway.chat(Self.question))
            #expect(again.headers["x-skillgate-cache"] == "hit" && again.headers["age"] == "0")
        }
    }

    /// A scenario's own time to live wins over the gateway's.
    @Test func aScenarioKeepsItsAnswersForItsOwnTime() async throws {
        try await ResponseCacheGateway.with([OpenAIRecordings.text]) { g, upstream in
            let other: HTTPHeaders = ["x-skillgate-scenario": "other"]
            _ = try await g.post(ResponseCacheGateway.chat(Self.question), headers: other)
            _ = try await g.post(ResponseCacheGateway.chat(Self.question))
            g.clock.advance(300)
            #expect(try await g.post(ResponseCacheGateway.chat(Self.question), headers: other).headers["x-skillgate-cache"] == "hit")
            #expect(try await g.post(ResponseCacheGateway.chat(Self.question)).headers["x-skillgate-cache"] == "miss")
            #expect(upstream.requestCount == 3)
        }
    }

    /// The cache holds at most `max_mib`: past it the least recently used answers go first.
    @Test func theLeastRecentlyUsedAnswersGoPastTheBound() async throws {
        // Answers of ~100 KiB each (the largest kept is an eighth of the 1 MiB bound).
        let long = String(repeating: "x", count: 100 << 10)
        let reply = UpstreamDouble.Reply.json(status: 200, body: Array(#"{"id":"chatcmpl-long","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"\#(long)"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":25000,"total_tokens":25005}}"#.utf8), headers: [:])
        try await ResponseCacheGateway.with([reply], responseCache: #"{"max_mib":1}"#) { g, upstream in
            for i in 0..<9 { #expect(try await g.post(ResponseCacheGateway.chat("question \(i)")).status == 200) }
            // The first is used again, so the second is now the least recently used.
            #expect(try await g.post(ResponseCacheGateway.chat("question 0")).headers["x-skillgate-cache"] == "hit")
            for i in 9..<12 { _ = try await g.post(ResponseCacheGateway.chat("question \(i)")) }
            #expect(upstream.requestCount == 12)
            let evicted = try #require(try await g.metric(#"skillgate_response_cache_evictions_total{reason="bytes"}"#))
            #expect(evicted >= 2)
            let bytes = try #require(try await g.metric("skillgate_response_cache_bytes"))
            #expect(bytes <= Double(1 << 20) && bytes > Double(8 * (100 << 10)), "\(bytes)")
            #expect(try await g.post(ResponseCacheGateway.chat("question 1")).headers["x-skillgate-cache"] == "miss")
            #expect(try await g.post(ResponseCacheGateway.chat("question 0")).headers["x-skillgate-cache"] == "hit")
            #expect(try await g.post(ResponseCacheGateway.chat("question 11")).headers["x-skillgate-cache"] == "hit")
        }
    }

    /// The text of an OpenAI stream's content deltas.
    static func streamedText(_ sse: String) -> String {
        var text = ""
        for line in sse.split(separator: "\n") where line.hasPrefix("data: {") {
            guard let chunk = try? JSONValue.parse(String(line.dropFirst(6))),
                  let delta = chunk["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue else { continue }
            text += delta
        }
        return text
    }
}
