import Testing
import SkillGateCore
@testable import SkillGateProviders

/// `inboundResponseBytes` writes, byte for byte, what the tree it replaced serialised to
/// (`AnthropicResponseTreeReference`): for answers built in code with every kind of block, and for recorded provider
/// answers parsed by their own formats.
@Suite struct AnthropicInboundResponseBytesTests {
    typealias Case = NamedCase<ChatResponse>

    static let usage = Usage(inputTokens: 120, outputTokens: 34, cachedInputTokens: 50, cacheWriteTokens: 6, reasoningTokens: 7)

    static let cases: [Case] = [
        Case(name: "text", response: ChatResponse(id: "msg_1", model: "claude", content: [.text("Hello \"world\"\n東京 \\ \u{0007}")],
                                                  finishReason: .stop, usage: usage)),
        Case(name: "empty, fallback id", response: ChatResponse(id: "", model: "m", content: [], finishReason: .length)),
        Case(name: "tool calls: an object, broken and non-object arguments", response: ChatResponse(id: "r", model: "m", content: [
            .text("Let me look."),
            .toolCall(ToolCall(id: "toolu_1", name: "get_weather", arguments: #"{"city": "Paris", "days": [1, 2.5e3], "x": {"y": null}}"#)),
            .toolCall(ToolCall(id: "toolu_2", name: "broken", arguments: #"{"city": "#)),
            .toolCall(ToolCall(id: "toolu_3", name: "list", arguments: "[1,2]")),
            .toolCall(ToolCall(id: "toolu_4", name: "noop", arguments: "")),
        ], finishReason: .toolCalls, usage: usage)),
        Case(name: "thinking, redacted thinking, and blocks an answer cannot hold", response: ChatResponse(id: "r", model: "m", content: [
            .thinking(Thinking(text: "First, \"think\".", signature: "sig==")), .thinking(Thinking(text: "unsigned")),
            .thinking(Thinking(text: "", redactedData: "ENCRYPTED")),
            .image(.url("https://example.com/a.png")),
            .toolResult(ToolResult(callId: "c", content: [.text("result")])),
            .text("Done."),
        ], finishReason: .stop)),
        Case(name: "other finish reasons", response: ChatResponse(id: "r", model: "m", content: [.text("x")], finishReason: .other("weird\"reason"))),
        Case(name: "content filter", response: ChatResponse(id: "r", model: "m", content: [.text("x")], finishReason: .contentFilter)),
        Case(name: "pause turn", response: ChatResponse(id: "r", model: "m", content: [.text("x")], finishReason: .pauseTurn)),
    ]

    static func check(_ response: ChatResponse) throws {
        for fallbackId in ["msg_skillgate", "id \"quoted\" 模型"] {
            let bytes = AnthropicMessagesFormat.inboundResponseBytes(response, fallbackId: fallbackId)
            let expected = AnthropicResponseTreeReference.body(response, fallbackId: fallbackId).serializedBytes()
            #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            #expect(AnthropicMessagesFormat.inboundResponseBody(response, fallbackId: fallbackId) == (try JSONValue.parse(expected)))
        }
    }

    @Test(arguments: cases)
    func bytesEqualTheTreeEncoding(_ c: Case) throws { try Self.check(c.response) }

    @Test(arguments: ["test_anthropic_tool_with_thinking.0.response.json", "test_multiple_parallel_tool_calls.0.response.json",
                      "test_multiple_parallel_tool_calls.1.response.json", "anthropic-text.json", "anthropic-tool-no-args.json"])
    func recordedAnthropicAnswers(file: String) throws {
        try Self.check(try AnthropicMessagesFormat.parseMessageBody(try Fixtures.bytes("anthropic/\(file)"), provider: "anthropic"))
    }

    @Test(arguments: ["openai-text.json", "test_temporal_agent_with_hitl_tool.0.response.json"])
    func recordedOpenAIAnswers(file: String) throws {
        try Self.check(try OpenAIChatFormat.parseCompletion(try Fixtures.bytes("openai/\(file)"), provider: "openai"))
    }
}
