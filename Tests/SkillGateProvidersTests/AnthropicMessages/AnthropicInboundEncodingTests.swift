import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// The inbound surface's answers: Message JSON and SSE.
@Suite struct AnthropicInboundEncodingTests {
    static func encode(_ events: [ChatStreamEvent]) -> [UInt8] {
        var encoder = AnthropicMessagesSSEEncoder()
        var out: [UInt8] = []
        for e in events { out += encoder.encode(e) }
        return out + encoder.finish()
    }

    /// Events → Anthropic SSE → translator gives the same events back.
    @Test(arguments: AnthropicStreamFixtureTests.cases.map(\.file))
    func recordedEventsSurviveEncoding(_ file: String) throws {
        let events = try AnthropicTestSupport.events(try AnthropicTestSupport.streamBody(file))
        let again = try AnthropicTestSupport.events(Self.encode(events))
        #expect(again == events)
    }

    @Test func handWrittenEventsSurviveEncodingAndUseConsecutiveBlockIndices() throws {
        let events: [ChatStreamEvent] = [
            .start(id: "msg_x", model: "gpt-4.1"),
            .thinkingDelta("let me think"), .thinkingSignature("sig1"),
            .redactedThinking("REDACTED"),
            .textDelta("Calling "), .textDelta("tools."),
            .toolCallStart(ordinal: 0, id: "call_a", name: "get_weather"),
            .toolCallArgumentsDelta(ordinal: 0, fragment: #"{"city":"#), .toolCallArgumentsDelta(ordinal: 0, fragment: #""Oslo"}"#),
            .toolCallEnd(ordinal: 0),
            .toolCallStart(ordinal: 1, id: "call_b", name: "get_weather"),
            .toolCallArgumentsDelta(ordinal: 1, fragment: #"{"city":"Rome"}"#),
            .toolCallEnd(ordinal: 1),
            .finish(.toolCalls),
            .usage(Usage(inputTokens: 120, outputTokens: 33, cachedInputTokens: 20)),
        ]
        let sse = Self.encode(events)
        #expect(try AnthropicTestSupport.events(sse) == events)
        var decoder = SSEDecoder()
        let frames = decoder.feed(sse) + decoder.finish()
        #expect(frames.first?.event == "message_start")
        #expect(frames.last?.event == "message_stop")
        let starts = frames.filter { $0.event == "content_block_start" }.compactMap { try? JSONValue.parse($0.data)["index"]?.intValue }
        #expect(starts == [0, 1, 2, 3, 4])
        let stops = frames.filter { $0.event == "content_block_stop" }.compactMap { try? JSONValue.parse($0.data)["index"]?.intValue }
        #expect(stops == [0, 1, 2, 3, 4])
        let delta = try #require(frames.first { $0.event == "message_delta" })
        let payload = try JSONValue.parse(delta.data)
        #expect(payload["delta"]?["stop_reason"] == "tool_use")
        #expect(payload["usage"]?["input_tokens"] == 100)
        #expect(payload["usage"]?["cache_read_input_tokens"] == 20)
        #expect(frames.allSatisfy { $0.event == (try? JSONValue.parse($0.data)["type"]?.stringValue) })
    }

    @Test func responseBodyIsAnAnthropicMessage() throws {
        let response = try AnthropicTestSupport.format.parseResponse(
            try Fixtures.bytes("anthropic/test_anthropic_tool_with_thinking.0.response.json"), deployment: AnthropicTestSupport.deployment)
        let body = AnthropicMessagesFormat.inboundResponseBody(response)
        let original = try JSONValue.parse(try Fixtures.bytes("anthropic/test_anthropic_tool_with_thinking.0.response.json"))
        #expect(body["type"] == "message")
        #expect(body["role"] == "assistant")
        let blocks = try #require(body["content"]?.arrayValue)
        let recorded = try #require(original["content"]?.arrayValue)
        for (block, rec) in zip(blocks, recorded) {
            for key in ["type", "thinking", "signature", "text", "id", "name", "input"] { #expect(AnthropicTestSupport.sortedKeys(block[key]) == AnthropicTestSupport.sortedKeys(rec[key]), "\(key)") }
        }
        #expect(body["stop_reason"] == "tool_use")
        #expect(body["usage"]?["input_tokens"] == 398)
        #expect(body["usage"]?["output_tokens"] == 155)
        // And it parses back into the same response.
        #expect(try AnthropicTestSupport.format.parseResponse(body.serializedBytes(), deployment: AnthropicTestSupport.deployment) == response)
    }

    @Test(arguments: [(FinishReason.stop, "end_turn"), (.length, "max_tokens"), (.toolCalls, "tool_use"), (.pauseTurn, "pause_turn"),
                      (.refusal, "refusal"), (.contentFilter, "refusal"), (.other("weird"), "weird")])
    func stopReasonsOnTheInboundSurface(reason: FinishReason, wire: String) {
        let body = AnthropicMessagesFormat.inboundResponseBody(ChatResponse(id: "", model: "m", content: [.text("x")], finishReason: reason))
        #expect(body["stop_reason"]?.stringValue == wire)
        #expect(body["id"] == "msg_skillgate")
    }

    @Test(arguments: [GatewayError.Kind.upstreamOverloaded, .rateLimited, .invalidRequest])
    func errorEventsAreReadBackAsTheSameKind(kind: GatewayError.Kind) throws {
        let status = [GatewayError.Kind.upstreamOverloaded: 503, .rateLimited: 429, .invalidRequest: 400][kind]!
        let original = GatewayError(domain: .provider, kind: kind, status: status, message: "went wrong", provider: "openai")
        var encoder = AnthropicMessagesSSEEncoder()
        let body = encoder.encode(.start(id: "m", model: "x")) + encoder.encode(.textDelta("par"))
            + AnthropicMessagesSSEEncoder.errorEvent(original)
        let e = try #require(AnthropicTestSupport.streamError(body))
        #expect(e.kind == kind)
        #expect(e.message.contains("went wrong"))
    }
}
