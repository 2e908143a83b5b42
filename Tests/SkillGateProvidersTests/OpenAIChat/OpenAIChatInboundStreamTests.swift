import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

@Suite struct OpenAIChatInboundStreamTests {
    static let toolAnswer: [ChatStreamEvent] = [
        .start(id: "chatcmpl-gw1", model: "skillgate-auto"),
        .textDelta("Checking "), .textDelta("both cities…"),
        .toolCallStart(ordinal: 0, id: "call_a", name: "get_weather"),
        .toolCallArgumentsDelta(ordinal: 0, fragment: #"{"city":"#),
        .toolCallStart(ordinal: 1, id: "call_b", name: "get_weather"),
        .toolCallArgumentsDelta(ordinal: 1, fragment: #"{"city":"Rome"}"#),
        .toolCallArgumentsDelta(ordinal: 0, fragment: #""Paris"}"#),
        .toolCallEnd(ordinal: 0), .toolCallEnd(ordinal: 1),
        .finish(.toolCalls),
        .usage(Usage(inputTokens: 120, outputTokens: 40, cachedInputTokens: 64, reasoningTokens: 8)),
    ]
    static let textAnswer: [ChatStreamEvent] = [
        .start(id: "chatcmpl-gw2", model: "skillgate-auto"),
        .thinkingDelta("Let me think."), .textDelta("Hello\nworld \"quoted\""), .finish(.length),
        .usage(Usage(inputTokens: 5, outputTokens: 7)),
    ]

    static func encode(_ events: [ChatStreamEvent], includeUsage: Bool = true) -> [UInt8] {
        guard case .start(let id, let model) = events.first else { return [] }
        var encoder = OpenAIChatStreamEncoder(id: id, model: model, created: 1_700_000_000, includeUsage: includeUsage)
        return events.flatMap { encoder.encode($0) } + encoder.finish()
    }

    @Test(arguments: [toolAnswer, textAnswer])
    func eventsSurviveEncodeThenTranslate(events: [ChatStreamEvent]) throws {
        let sse = Self.encode(events)
        #expect(try StreamFeeding.whole(OpenAIChatTestSupport.translator(), sse) == events)
        #expect(try StreamFeeding.byteByByte(OpenAIChatTestSupport.translator(), sse) == events)
    }

    @Test func chunksLookLikeOpenAIs() throws {
        let sse = Self.encode(Self.toolAnswer)
        var decoder = SSEDecoder()
        let events = decoder.feed(sse) + decoder.finish()
        #expect(events.last?.isDone == true)
        let chunks = try events.dropLast().map { try JSONValue.parse($0.data) }
        for chunk in chunks {
            #expect(chunk["object"] == "chat.completion.chunk")
            #expect(chunk["id"] == "chatcmpl-gw1")
            #expect(chunk["created"] == 1_700_000_000)
        }
        #expect(chunks.first?["choices"]?[0]?["delta"] == ["role": "assistant", "content": ""])
        // id/type/name only in the first delta of each call.
        let calls: [JSONValue] = chunks.compactMap { chunk -> JSONValue? in chunk["choices"]?[0]?["delta"]?["tool_calls"]?[0] }
        #expect(calls.count == 5)
        let firsts: [JSONValue?] = calls.filter { $0["id"] != nil }.map { $0["index"] }
        #expect(firsts == [0, 1])
        for later in calls where later["id"] == nil {
            #expect(later["function"]?["name"] == nil)
            #expect(later["type"] == nil)
        }
        let usageChunk = try #require(chunks.last)
        #expect(usageChunk["choices"] == [])
        #expect(usageChunk["usage"]?["prompt_tokens_details"]?["cached_tokens"] == 64)
        #expect(usageChunk["usage"]?["total_tokens"] == 160)
    }

    /// The chunks written from a precomputed prefix are byte for byte what encoding each whole chunk as a tree gives,
    /// with text, ids and models that need escaping.
    @Test(arguments: ["Hello\nworld \"quoted\" \\ \u{1}\t", "你好，世界 🌍", "", "</script>\u{2028}"])
    func chunksAreTheBytesOfTheWholeChunkAsATree(text: String) throws {
        let id = "chatcmpl-\"odd\"\n", model = "mock/模型"
        var encoder = OpenAIChatStreamEncoder(id: id, model: model, created: 1_700_000_123, includeUsage: false)
        func chunk(_ delta: JSONObject, finish: String? = nil) -> [UInt8] {
            var header: JSONObject = ["id": .string(id), "object": "chat.completion.chunk", "created": .int(1_700_000_123),
                                      "model": .string(model)]
            header.append("choices", [["index": 0, "delta": .object(delta), "logprobs": nil,
                                       "finish_reason": finish.map(JSONValue.string) ?? .null]])
            return SSEEncoder.encodeJSON(.object(header))
        }
        #expect(encoder.encode(.textDelta(text)) == chunk(["role": "assistant", "content": ""]) + chunk(["content": .string(text)]))
        #expect(encoder.encode(.thinkingDelta(text)) == chunk(["reasoning_content": .string(text)]))
        #expect(encoder.encode(.toolCallStart(ordinal: 12, id: "call_" + text, name: text))
                == chunk(["tool_calls": [["index": 12, "id": .string("call_" + text), "type": "function",
                                          "function": ["name": .string(text), "arguments": ""]]]]))
        #expect(encoder.encode(.toolCallArgumentsDelta(ordinal: 2, fragment: text))
                == chunk(["tool_calls": [["index": 2, "function": ["arguments": .string(text)]]]]))
        #expect(encoder.encode(.finish(.stop)) == chunk([:], finish: "stop"))
        #expect(encoder.encode(.finish(.toolCalls)) == chunk([:], finish: "tool_calls"))
        #expect(encoder.encode(.finish(.other("odd \"" + text))) == chunk([:], finish: OpenAIChatFormat.wireFinishReason(.other("odd \"" + text))))
    }

    @Test func withoutIncludeUsageThereIsNoUsageChunk() throws {
        let text = String(decoding: Self.encode(Self.textAnswer, includeUsage: false), as: UTF8.self)
        #expect(!text.contains("\"usage\""))
        #expect(text.hasSuffix("data: [DONE]\n\n"))
    }

    @Test func errorsAfterTheStartAreDataEvents() throws {
        let encoder = OpenAIChatStreamEncoder(id: "x", model: "m", created: 1, includeUsage: false)
        let error = GatewayError(domain: .provider, kind: .upstreamOverloaded, status: 503, message: "overloaded — retry later", provider: "anthropic")
        let bytes = encoder.encodeError(error)
        let e = OpenAIChatTestSupport.gatewayError { _ = try StreamFeeding.whole(OpenAIChatTestSupport.translator(), bytes) }
        #expect(e?.message.contains("overloaded") == true)
    }

    @Test func responseRoundTripsThroughTheParser() throws {
        let response = ChatResponse(
            id: "chatcmpl-gw3", model: "skillgate-auto",
            content: [.text("Calling."), .toolCall(ToolCall(id: "call_z", name: "get_weather", arguments: #"{"city":"Oslo"}"#))],
            finishReason: .toolCalls, usage: Usage(inputTokens: 10, outputTokens: 4, cachedInputTokens: 2, reasoningTokens: 1))
        let body = OpenAIChatFormat.encodeInboundResponse(response, id: "chatcmpl-gw3", model: "skillgate-auto", created: 5)
        #expect(body["object"] == "chat.completion")
        #expect(try OpenAIChatFormat.parseCompletion(body.serializedBytes(), provider: "p") == response)
    }

    @Test func refusalRoundTripsViaTheRefusalField() throws {
        let response = ChatResponse(id: "r", model: "m", content: [.text("I can't help with that.")], finishReason: .refusal)
        let body = OpenAIChatFormat.encodeInboundResponse(response, id: "r", model: "m", created: 5)
        #expect(body["choices"]?[0]?["message"]?["refusal"] == "I can't help with that.")
        #expect(body["choices"]?[0]?["message"]?["content"] == .null)
        #expect(try OpenAIChatFormat.parseCompletion(body.serializedBytes(), provider: "p") == response)
    }
}

fileprivate extension JSONValue {
    /// Element `i` of an array value.
    subscript(i: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(i) else { return nil }
        return a[i]
    }
}
