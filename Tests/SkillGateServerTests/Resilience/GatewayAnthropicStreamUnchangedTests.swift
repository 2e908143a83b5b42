import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// Guard of decision 0134: holding an Anthropic stream's `start` back to its first content block changes no answer that
/// streams normally. What a client reads, on the Messages and the Chat Completions surfaces, is compared byte for byte
/// (the chunks' `created` times and random ids normalised) with what the gateway gave before the change, kept in
/// `Tests/Fixtures/anthropic/gateway-golden/` (written at the decision's base commit).
@Suite(.serialized) struct GatewayAnthropicStreamUnchangedTests {
    typealias Surface = GatewayFailedAnswerTests.Surface

    /// A hand-written stream after the recorded ones' shape, with cache counters in `message_start` (none of the
    /// recordings has any).
    static let cachedStream = """
    event: message_start
    data: {"type":"message_start","message":{"id":"msg_cached","type":"message","role":"assistant","model":"claude-cached","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":5,"cache_read_input_tokens":100,"output_tokens":1}}}

    event: content_block_start
    data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

    event: ping
    data: {"type": "ping"}

    event: content_block_delta
    data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Cached hello."}}

    event: content_block_stop
    data: {"type":"content_block_stop","index":0}

    event: message_delta
    data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":4}}

    event: message_stop
    data: {"type":"message_stop"}


    """

    /// The streams: thinking with its signature then text; text then a tool call with `input_json_delta`s; cache counters.
    static let streams: [(name: String, bytes: [UInt8])] = [
        ("thinking", GatewayStreamHealthTests.anthropicBytes("test_anthropic_model_thinking_part_stream.0.response.sse")),
        ("tool-use", GatewayStreamHealthTests.anthropicBytes("tool_use_response.txt")),
        ("cache", Array(cachedStream.utf8)),
    ]

    static func body(_ surface: Surface) -> [UInt8] {
        switch surface {
        case .messages:
            return Array(#"{"model":"light","stream":true,"max_tokens":100,"messages":[{"role":"user","content":"Weather in Paris?"}],"tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"location":{"type":"string"}}}}]}"#.utf8)
        default:
            return Array(#"{"model":"light","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"Weather in Paris?"}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"location":{"type":"string"}}}}}]}"#.utf8)
        }
    }

    static func golden(_ name: String, _ surface: Surface) -> URL {
        OpenAIRecordings.root.deletingLastPathComponent().appendingPathComponent("anthropic/gateway-golden/\(name).\(surface == .messages ? "messages" : "chat").txt")
    }

    /// `text` with what differs per request taken out: every `"created":<digits>` zeroed, and the Chat Completions id the
    /// gateway makes (`chatcmpl-<random hex>`) made `chatcmpl-0`.
    static func normalised(_ text: String) -> String {
        text.replacingOccurrences(of: #""created":[0-9]+"#, with: #""created":0"#, options: .regularExpression)
            .replacingOccurrences(of: #""chatcmpl-[0-9a-f]+""#, with: #""chatcmpl-0""#, options: .regularExpression)
    }

    @Test(arguments: [Surface.messages, .chat], [0, 1, 2])
    func aNormalStreamReachesTheClientAsBefore(_ surface: Surface, _ index: Int) async throws {
        let stream = Self.streams[index]
        try await GatewayFailedAnswerTests.withGateway(a: [.sse(stream.bytes)], wireFormat: "anthropic-messages") { gw, _, _ in
            let request = HTTPRequest(method: "POST", url: "http://127.0.0.1:\(gw.server.boundPort)\(surface.rawValue)",
                                      headers: ["authorization": "Bearer \(gw.token)", "content-type": "application/json", "anthropic-version": "2023-06-01"],
                                      body: Self.body(surface))
            let response = try await gw.http.stream(request)
            var bytes: [UInt8] = []
            for try await chunk in response.body { bytes += chunk }
            #expect(response.status == 200)
            let text = Self.normalised(String(decoding: bytes, as: UTF8.self))
            let expected = try String(contentsOf: Self.golden(stream.name, surface), encoding: .utf8)
            #expect(text == expected)
        }
    }
}
