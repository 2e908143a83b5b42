import Testing
import SkillGateCore
@testable import SkillGateProviders

/// `encodeInboundResponseBytes` writes, byte for byte, what the tree it replaced serialised to
/// (`OpenAIChatResponseTreeReference`): for answers built in code with every kind of content, and for
/// recorded provider answers parsed by their own formats.
@Suite struct OpenAIChatInboundResponseBytesTests {
    typealias Case = NamedCase<ChatResponse>

    static let usage = Usage(inputTokens: 12, outputTokens: 34, cachedInputTokens: 5, cacheWriteTokens: 6, reasoningTokens: 7)

    static let cases: [Case] = [
        Case(name: "text", response: ChatResponse(id: "r", model: "m", content: [.text("Hello \"world\"\n東京 \u{0007}")], finishReason: .stop, usage: usage)),
        Case(name: "empty", response: ChatResponse(id: "r", model: "m", content: [], finishReason: .length)),
        Case(name: "refusal", response: ChatResponse(id: "r", model: "m", content: [.text("I can't help with that.")], finishReason: .refusal)),
        Case(name: "tool calls only", response: ChatResponse(id: "r", model: "m", content: [
            .toolCall(ToolCall(id: "call_1", name: "get_weather", arguments: #"{"city":"Paris"}"#)),
            .toolCall(ToolCall(id: "call_2", name: "noop", arguments: "")),
        ], finishReason: .toolCalls, usage: usage)),
        Case(name: "thinking, text and a call", response: ChatResponse(id: "r", model: "m", content: [
            .thinking(Thinking(text: "First, ")), .thinking(Thinking(text: "")), .text("Let me look."),
            .thinking(Thinking(text: "then look.", signature: "sig")),
            .toolCall(ToolCall(id: "c", name: "search", arguments: "{}")),
        ], finishReason: .toolCalls)),
        Case(name: "other finish reasons", response: ChatResponse(id: "r", model: "m", content: [.text("x")], finishReason: .other("weird\"reason"))),
        Case(name: "content filter", response: ChatResponse(id: "r", model: "m", content: [.text("x")], finishReason: .contentFilter)),
        Case(name: "pause turn", response: ChatResponse(id: "r", model: "m", content: [.text("x")], finishReason: .pauseTurn)),
    ]

    static func check(_ response: ChatResponse) throws {
        for (id, model, created) in [("chatcmpl-1", "gpt-test", 1_767_225_600), ("id \"quoted\"", "模型", 0)] {
            let bytes = OpenAIChatFormat.encodeInboundResponseBytes(response, id: id, model: model, created: created)
            let expected = OpenAIChatResponseTreeReference.encode(response, id: id, model: model, created: created).serializedBytes()
            #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            #expect(OpenAIChatFormat.encodeInboundResponse(response, id: id, model: model, created: created) == (try JSONValue.parse(expected)))
        }
    }

    @Test(arguments: cases)
    func bytesEqualTheTreeEncoding(_ c: Case) throws { try Self.check(c.response) }

    @Test(arguments: ["openai-text.json",
                      "test_temporal_agent_with_hitl_tool.0.response.json"])
    func recordedOpenAIAnswers(file: String) throws {
        try Self.check(try OpenAIChatFormat.parseCompletion(try Fixtures.bytes("openai/\(file)"), provider: "openai"))
    }

    @Test(arguments: ["test_anthropic_tool_with_thinking.0.response.json", "test_multiple_parallel_tool_calls.0.response.json",
                      "test_multiple_parallel_tool_calls.1.response.json"])
    func recordedAnthropicAnswers(file: String) throws {
        try Self.check(try AnthropicMessagesFormat.parseMessageBody(try Fixtures.bytes("anthropic/\(file)"), provider: "anthropic"))
    }
}
