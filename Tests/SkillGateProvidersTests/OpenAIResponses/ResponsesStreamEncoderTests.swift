import Testing
import Synchronization
import SkillGateCore
@testable import SkillGateProviders

@Suite struct ResponsesStreamEncoderTests {
    static let object = ResponsesObject(id: "resp_s1", createdAt: 1_700_000_000, model: "up/gpt", echo: ResponsesEcho())

    /// The SSE events of `bytes` as (event line, data JSON).
    static func events(_ bytes: [UInt8]) throws -> [(name: String, data: JSONValue)] {
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("\n\n"))
        return try text.split(separator: "\n\n").map { block in
            let lines = block.split(separator: "\n")
            #expect(lines.count == 2, "\(block)")
            #expect(lines[0].hasPrefix("event: ") && lines[1].hasPrefix("data: "))
            return (String(lines[0].dropFirst(7)), try JSONValue.parse(String(lines[1].dropFirst(6))))
        }
    }

    static func run(_ events: [ChatStreamEvent], onComplete: (@Sendable (ChatResponse, [UInt8]) -> Void)? = nil) -> [UInt8] {
        var encoder = ResponsesStreamEncoder(object: object, onComplete: onComplete)
        var out: [UInt8] = []
        for e in events { out += encoder.encode(e) }
        return out + encoder.finish()
    }

    static let toolAnswer: [ChatStreamEvent] = [
        .start(id: "chatcmpl-up", model: "gpt"), .thinkingDelta("Plan"), .thinkingDelta("."), .thinkingSignature("sig"),
        .textDelta("Checking"), .textDelta(" now."),
        .toolCallStart(ordinal: 0, id: "call_1", name: "get_weather"), .toolCallArgumentsDelta(ordinal: 0, fragment: #"{"city":"#),
        .toolCallArgumentsDelta(ordinal: 0, fragment: #""Oslo"}"#), .toolCallEnd(ordinal: 0),
        .finish(.toolCalls), .usage(Usage(inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2)),
    ]

    @Test func theEventSequenceIsWhatTheSDKExpectsNumberedFromZero() throws {
        let events = try Self.events(Self.run(Self.toolAnswer))
        #expect(events.map(\.name) == [
            "response.created", "response.in_progress",
            "response.output_item.added", "response.reasoning_summary_part.added",
            "response.reasoning_summary_text.delta", "response.reasoning_summary_text.delta",
            "response.reasoning_summary_text.done", "response.reasoning_summary_part.done", "response.output_item.done",
            "response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
            "response.output_text.done", "response.content_part.done", "response.output_item.done",
            "response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.delta",
            "response.function_call_arguments.done", "response.output_item.done",
            "response.completed",
        ])
        for (i, e) in events.enumerated() {
            #expect(e.data["type"] == .string(e.name) && e.data["sequence_number"] == .int(i))
        }
        #expect(events[0].data["response"]?["status"] == "in_progress" && events[0].data["response"]?["output"] == [])
        #expect(events[0].data["response"]?["usage"] == .null)
        #expect(events[13].data["text"] == "Checking now." && events[13].data["item_id"] == "msg_s1_1")
        #expect(events[19].data["arguments"] == #"{"city":"Oslo"}"# && events[19].data["name"] == "get_weather")
        #expect(events[8].data["item"]?["encrypted_content"] == "sig")
    }

    /// `response.completed` holds the same output and usage the whole answer's body has; `onComplete` is handed that
    /// object's bytes exactly (what `GET /v1/responses/{id}` answers later).
    @Test func theCompletedResponseEqualsTheWholeAnswer() throws {
        let stored = Mutex<(ChatResponse, [UInt8])?>(nil)
        let stream = Self.run(Self.toolAnswer) { r, object in stored.locked { $0 = (r, object) } }
        let events = try Self.events(stream)
        let completed = try #require(events.last?.data["response"])
        let (response, object) = try #require(stored.locked { $0 })
        let tail = Array(#","response":"#.utf8) + object + Array("}\n\n".utf8)
        #expect(Array(stream.suffix(tail.count)) == tail)
        #expect(response.content == [.thinking(Thinking(text: "Plan.", signature: "sig")), .text("Checking now."),
                                     .toolCall(ToolCall(id: "call_1", name: "get_weather", arguments: #"{"city":"Oslo"}"#))])
        #expect(completed == (try JSONValue.parse(OpenAIResponsesFormat.responseBody(response, object: Self.object))))
        #expect(completed["usage"]?["input_tokens_details"]?["cached_tokens"] == 4)
        #expect(completed["usage"]?["output_tokens_details"]?["reasoning_tokens"] == 2)
    }

    /// The bytes of the hot-path events, exactly.
    @Test func deltaEventsAreExactBytes() {
        var encoder = ResponsesStreamEncoder(object: Self.object)
        _ = encoder.encode(.start(id: "", model: ""))
        let first = String(decoding: encoder.encode(.textDelta("Hi \"you\"\n")), as: UTF8.self)
        #expect(first.hasSuffix("""
            event: response.output_text.delta
            data: {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_s1_0","output_index":0,"content_index":0,"delta":"Hi \\"you\\"\\n","logprobs":[]}


            """))
        #expect(first.hasPrefix("""
            event: response.output_item.added
            data: {"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"msg_s1_0","type":"message","status":"in_progress","role":"assistant","content":[]}}

            event: response.content_part.added
            data: {"type":"response.content_part.added","sequence_number":3,"item_id":"msg_s1_0","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[],"logprobs":[]}}

            """))
        _ = encoder.encode(.toolCallStart(ordinal: 0, id: "call_9", name: "f"))
        let args = String(decoding: encoder.encode(.toolCallArgumentsDelta(ordinal: 0, fragment: "{}")), as: UTF8.self)
        #expect(args == """
            event: response.function_call_arguments.delta
            data: {"type":"response.function_call_arguments.delta","sequence_number":9,"item_id":"fc_s1_1","output_index":1,"delta":"{}"}


            """)
    }

    @Test func aTruncatedStreamEndsIncomplete() throws {
        let events = try Self.events(Self.run([.textDelta("Par"), .finish(.length), .usage(Usage(inputTokens: 1, outputTokens: 1))]))
        #expect(events.last?.name == "response.incomplete")
        #expect(events.last?.data["response"]?["incomplete_details"] == ["reason": "max_output_tokens"])
    }

    @Test func anEmptyUpstreamStreamStillOpensAndCompletes() throws {
        let events = try Self.events(Self.run([]))
        #expect(events.map(\.name) == ["response.created", "response.in_progress", "response.completed"])
        #expect(events.last?.data["response"]?["output"] == [])
    }

    @Test func aFailureContinuesTheSequenceWithErrorAndResponseFailed() throws {
        var encoder = ResponsesStreamEncoder(object: Self.object)
        var out = encoder.encode(.textDelta("Hal"))
        out += encoder.failure(GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502, message: "upstream closed the stream"))
        let events = try Self.events(out)
        #expect(events.suffix(2).map(\.name) == ["error", "response.failed"])
        #expect(events.enumerated().allSatisfy { $1.data["sequence_number"] == .int($0) })
        let error = events[events.count - 2].data
        #expect(error["code"] == "upstream_unavailable" && error["message"]?.stringValue?.contains("upstream closed") == true)
        let failed = try #require(events.last?.data["response"])
        #expect(failed["status"] == "failed" && failed["error"]?["code"] == "upstream_unavailable")
    }

    @Test func interleavedToolCallsKeepTheirOwnItems() throws {
        let events = try Self.events(Self.run([
            .toolCallStart(ordinal: 0, id: "a", name: "f"), .toolCallStart(ordinal: 1, id: "b", name: "g"),
            .toolCallArgumentsDelta(ordinal: 1, fragment: "{\"y\":1}"), .toolCallArgumentsDelta(ordinal: 0, fragment: "{\"x\":1}"),
            .finish(.toolCalls),
        ]))
        let output = try #require(events.last?.data["response"]?["output"]?.arrayValue)
        #expect(output.map { $0["call_id"] } == ["a", "b"])
        #expect(output.map { $0["arguments"] } == [#"{"x":1}"#, #"{"y":1}"#])
    }
}
