import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// An Anthropic stream that fails right after `message_start`, before any content, through the real gateway over
/// upstream doubles speaking Anthropic's wire format (decision 0134): the adapter holds `start` back until the first
/// content block, so an `event: error` (`overloaded_error`, `api_error`), a cut or a clean end at that point fails the
/// attempt before its first event — retried, fallen back from and counted against the deployment — instead of ending
/// the client's stream with an error event.
@Suite(.serialized) struct GatewayAnthropicHeldStartTests {
    typealias Surface = GatewayFailedAnswerTests.Surface

    static let thinkingFixture = "test_anthropic_model_thinking_part_stream.0.response.sse"
    /// The recorded stream's `message_start`.
    static var messageStart: [UInt8] { UpstreamDouble.events(GatewayStreamHealthTests.anthropicBytes(thinkingFixture))[0] }
    static let ping = Array("event: ping\ndata: {\"type\": \"ping\"}\n\n".utf8)

    static func errorEvent(_ type: String, _ message: String) -> [UInt8] {
        Array("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"\(type)\",\"message\":\"\(message)\"}}\n\n".utf8)
    }

    /// One way a stream fails right after `message_start`, and how its attempt is logged.
    struct Failure: Sendable, CustomTestStringConvertible {
        let name: String
        let reply: UpstreamDouble.Reply
        let logged: String
        var testDescription: String { name }
    }

    static var failures: [Failure] {
        let pause = Duration.milliseconds(100)
        return [
            // Anthropic's own overload, in its own write 100 ms after `message_start` (the reader waits on for content).
            Failure(name: "overloaded_error", reply: .sseWrites([messageStart + ping, errorEvent("overloaded_error", "Overloaded")], pause: pause),
                    logged: "up-a/m: 503 upstream_overloaded"),
            Failure(name: "api_error", reply: .sseWrites([messageStart, errorEvent("api_error", "Internal server error")], pause: pause),
                    logged: "up-a/m: 502 upstream_error"),
            // The connection cut, and the body ended cleanly (decision 0129), right after `message_start`.
            Failure(name: "cut", reply: .dropAfter(prefix: messageStart, contentType: "text/event-stream"),
                    logged: "up-a/m: 502 upstream_unavailable"),
            Failure(name: "clean end", reply: .sseWrites([messageStart + ping], pause: pause), logged: "up-a/m: 502 upstream_unavailable"),
        ]
    }

    /// The fallback's answer: the whole recorded stream (thinking with its signature, then text).
    static var good: UpstreamDouble.Reply { .sse(GatewayStreamHealthTests.anthropicBytes(thinkingFixture)) }

    /// The answer text of the recorded stream (its `text_delta`s joined).
    static var goodText: String {
        sseData(String(decoding: GatewayStreamHealthTests.anthropicBytes(thinkingFixture), as: UTF8.self))
            .compactMap { ($0["delta"] as? [String: Any])?["text"] as? String }.joined()
    }

    /// The JSON objects of an SSE text's `data:` lines (`[DONE]` left out).
    static func sseData(_ text: String) -> [[String: Any]] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix("data:") }.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(5).utf8))) as? [String: Any]
        }
    }

    /// The answer text a client read from the stream of `surface` (Messages: `text_delta`s; Chat: `delta.content`).
    static func clientText(_ text: String, _ surface: Surface) -> String {
        sseData(text).compactMap { object -> String? in
            switch surface {
            case .messages: return (object["delta"] as? [String: Any])?["text"] as? String
            default: return (((object["choices"] as? [[String: Any]])?.first)?["delta"] as? [String: Any])?["content"] as? String
            }
        }.joined()
    }

    static func withGateway(a: [UpstreamDouble.Reply], b: [UpstreamDouble.Reply]? = nil, resilience: String,
                            _ body: (ResilienceGateway, UpstreamDouble, UpstreamDouble?) async throws -> Void) async throws {
        try await GatewayFailedAnswerTests.withGateway(a: a, b: b, resilience: resilience, wireFormat: "anthropic-messages", body)
    }

    @Test(arguments: [Surface.messages, .chat], failures)
    func aStreamThatFailsRightAfterMessageStartFallsBack(_ surface: Surface, _ failure: Failure) async throws {
        try await Self.withGateway(a: [failure.reply], b: [Self.good], resilience: #"{"cooldown":{"after_failures":1,"seconds":30}}"#) { gw, da, db in
            let reply = try await GatewayFailedAnswerTests.send(gw, surface, stream: true)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(!reply.text.contains("event: error") && !reply.text.contains(#""error":"#), "no error event: \(reply.text.suffix(400))")
            #expect(Self.clientText(reply.text, surface) == Self.goodText, "the fallback's whole answer: \(reply.text.suffix(400))")
            #expect(surface == .messages ? reply.text.hasSuffix("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
                                         : reply.text.hasSuffix("data: [DONE]\n\n"), "\(reply.text.suffix(200))")
            #expect(da.requestCount == 1 && db?.requestCount == 1)
            let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
            #expect(attempts.count == 2 && attempts.first == failure.logged && attempts.last?.hasPrefix("up-b/m: 200 ok") == true, "\(attempts)")
            // Counted as a failed attempt of up-a: with `after_failures` 1 the next request skips it.
            let next = try await GatewayFailedAnswerTests.send(gw, surface, stream: true)
            #expect(next.status == 200 && Self.clientText(next.text, surface) == Self.goodText, "\(next.text.suffix(300))")
            let nextAttempts = await gw.logLines(atLeast: 2).last?["attempts"] as? [String] ?? []
            #expect(nextAttempts.first?.hasPrefix("up-a/m: skipped (cooling down") == true && da.requestCount == 1, "\(nextAttempts)")
            let metrics = String(decoding: try await gw.get("/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"skillgate_upstream_attempts_total{model="up-a/m",outcome="failed"} 1"#), "\(metrics)")
            #expect(!metrics.contains(#"skillgate_upstream_attempts_total{model="up-a/m",outcome="stream_failed"}"#))
        }
    }

    /// With no fallback and every attempt overloaded right after `message_start`, the client gets the overload as an
    /// error reply in its own shape (not a 200 ending in an error event), saying to retry or use a fallback.
    @Test(arguments: [Surface.messages, .chat])
    func withoutAFallbackTheClientGetsAnErrorItCanActOn(_ surface: Surface) async throws {
        let overloaded = UpstreamDouble.Reply.sse(Self.messageStart + Self.ping + Self.errorEvent("overloaded_error", "Overloaded"))
        try await Self.withGateway(a: [overloaded], resilience: #"{"max_attempts":2,"backoff":{"initial_ms":10,"max_ms":20}}"#) { gw, da, _ in
            let reply = try await GatewayFailedAnswerTests.send(gw, surface, stream: true)
            #expect(reply.status == 503, "\(reply.text)")
            let body = try JSONValue.parse(reply.text)
            let message = body["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("Overloaded") && message.contains("retry shortly or use a fallback deployment"), "\(message)")
            if surface == .messages {
                #expect(body["type"]?.stringValue == "error" && body["error"]?["type"]?.stringValue == "overloaded_error", "\(reply.text)")
            } else {
                #expect(body["error"]?["code"]?.stringValue == "upstream_overloaded", "\(reply.text)")
            }
            #expect(da.requestCount == 2, "tried again before giving up")
            let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
            #expect(attempts.count == 2 && attempts.allSatisfy { $0.hasPrefix("up-a/m: 503 upstream_overloaded") }, "\(attempts)")
        }
    }
}
