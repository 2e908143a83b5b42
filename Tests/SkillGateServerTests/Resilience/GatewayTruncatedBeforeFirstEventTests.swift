import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// A stream that ends cleanly before its first event, without an answer, through the real gateway over upstream doubles
/// speaking each wire format (decision 0129): nothing reached the client, so it is a cut like a connection broken at the
/// same point — retried and fallen back from under the same rules, and counted against the deployment's health. With a
/// healthy fallback the client gets the fallback's whole answer; with none, a 502 saying what to do.
@Suite(.serialized) struct GatewayTruncatedBeforeFirstEventTests {
    typealias Surface = GatewayFailedAnswerTests.Surface

    /// One wire format's truncated stream and a good answer in the same format.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let wireFormat: String
        let tools: String
        /// The client surface asked (each format through another one, so all three are covered).
        let surface: Surface
        let truncated: UpstreamDouble.Reply
        let good: UpstreamDouble.Reply
        /// A text of the good answer the client must read.
        let phrase: String
        var testDescription: String { name }
    }

    /// The metadata chunk Azure OpenAI sends first (`prompt_filter_results`, `choices` empty; the documented shape).
    static let azureMetadataChunk = #"data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}}}]}"#

    static var cases: [Case] {
        let roleChunk = UpstreamDouble.events(OpenAIRecordings.bytes("test_run_stream_sync_streams_real_model.1.response.sse"))[0]
        let geminiMetadata = GatewayFailedAnswerTests.writes("skillgate-metadata-then-malformed-function-call.sse")[0]
        return [
            // Comments only (keep-alives), then the body ends.
            Case(name: "openai-chat, comments only", wireFormat: "openai-chat", tools: "native", surface: .chat,
                 truncated: .sse(Array(": keep-alive\n\n: keep-alive\n\n".utf8)), good: OpenAIRecordings.streamedText, phrase: " London"),
            // A comment and Azure's metadata chunk (no choice), then the body ends.
            Case(name: "openai-chat, metadata chunk", wireFormat: "openai-chat", tools: "native", surface: .chat,
                 truncated: .sse(Array((": keep-alive\n\n" + azureMetadataChunk + "\n\n").utf8)), good: OpenAIRecordings.streamedText,
                 phrase: " London"),
            // A ping, then the body ends before `message_start`.
            Case(name: "anthropic-messages, ping only", wireFormat: "anthropic-messages", tools: "native", surface: .messages,
                 truncated: .sse(Array("event: ping\ndata: {\"type\": \"ping\"}\n\n".utf8)),
                 good: .sse(GatewayStreamHealthTests.anthropicBytes("test_anthropic_model_thinking_part_stream.0.response.sse")),
                 phrase: "Here are"),
            // Vertex's metadata-only chunk (decision 0123), then the body ends.
            Case(name: "gemini, metadata chunk", wireFormat: "gemini", tools: "native", surface: .responses,
                 truncated: .sseWrites([geminiMetadata], pause: .zero), good: GatewayFailedAnswerTests.goodStream, phrase: "get_country"),
            // A text-only model behind the prompt-tools adapter: its role chunk (held back by the adapter), then the end.
            Case(name: "prompt tools, role chunk", wireFormat: "openai-chat", tools: "prompt", surface: .chat,
                 truncated: .sse(roleChunk), good: GatewayPromptToolsFailedAnswerTests.good(stream: true), phrase: "Paris"),
        ]
    }

    @Test(arguments: cases)
    func aTruncationBeforeTheFirstEventFallsBackAndCoolsTheDeploymentDown(_ c: Case) async throws {
        try await GatewayFailedAnswerTests.withGateway(a: [c.truncated], b: [c.good], resilience: #"{"cooldown":{"after_failures":1,"seconds":30}}"#,
                                                       wireFormat: c.wireFormat, tools: c.tools) { gw, da, db in
            let reply = try await GatewayFailedAnswerTests.send(gw, c.surface, stream: true)
            #expect(reply.status == 200 && reply.text.contains(c.phrase), "the fallback's answer: \(reply.text)")
            #expect(!reply.text.contains(#""error":{"#) && !reply.text.contains("event: error") && !reply.text.contains("response.failed"),
                    "no error event: \(reply.text)")
            #expect(da.requestCount == 1 && db?.requestCount == 1, "the fallback answered")
            let line = await gw.logLines().last ?? [:]
            let attempts = line["attempts"] as? [String] ?? []
            #expect(attempts.count == 2 && attempts.first == "up-a/m: 502 upstream_unavailable"
                        && attempts.last?.hasPrefix("up-b/m: 200 ok") == true, "\(line)")
            // Counted against the deployment as a cut is: with `after_failures` 1 the next request skips it.
            let next = try await GatewayFailedAnswerTests.send(gw, c.surface, stream: true)
            #expect(next.status == 200 && next.text.contains(c.phrase), "\(next.text)")
            let nextAttempts = await gw.logLines(atLeast: 2).last?["attempts"] as? [String] ?? []
            #expect(nextAttempts.first?.hasPrefix("up-a/m: skipped (cooling down") == true && da.requestCount == 1, "\(nextAttempts)")
        }
    }

    @Test(arguments: cases)
    func withoutAFallbackTheClientGetsA502SayingWhatToDo(_ c: Case) async throws {
        try await GatewayFailedAnswerTests.withGateway(a: [c.truncated], resilience: #"{"max_attempts":2,"backoff":{"initial_ms":10,"max_ms":20}}"#,
                                                       wireFormat: c.wireFormat, tools: c.tools) { gw, da, _ in
            let reply = try await GatewayFailedAnswerTests.send(gw, c.surface, stream: true)
            #expect(reply.status == 502, "\(reply.text)")
            let body = try JSONValue.parse(reply.text)
            let message = body["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("before its first event") && message.contains("nothing of an answer reached you")
                        && message.contains("Retry the request") && message.contains("base URL"), "\(message)")
            if c.surface != .messages {
                #expect(body["error"]?["code"]?.stringValue == "upstream_unavailable", "\(reply.text)")
            }
            #expect(da.requestCount == 2, "tried again, as after a cut")
            let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
            #expect(attempts.count == 2 && attempts.allSatisfy { $0.hasPrefix("up-a/m: 502 upstream_unavailable") }, "\(attempts)")
        }
    }
}
