import Testing
import SkillGateCore
@testable import SkillGateProviders

/// A whole `/v1/responses` answer's output items are written straight as bytes (decision 0068): byte for byte what the
/// tree items gave. The golden files (`Tests/Fixtures/openai/responses-encoder-golden/*.json`) were written from the
/// answers below when the items were trees.
@Suite struct ResponsesAnswerBytesTests {
    /// Named by the golden file.
    typealias Case = NamedCase<ChatResponse>

    static let cases: [Case] = [
        Case(name: "answer-text.json", response: ChatResponse(
            id: "chatcmpl-1", model: "gpt", content: [.text("Hello \"there\"\n"), .text(" ünï 令牌 \\ \u{1}")], finishReason: .stop,
            usage: Usage(inputTokens: 12, outputTokens: 7, cachedInputTokens: 2))),
        Case(name: "answer-every-item.json", response: ChatResponse(
            id: "chatcmpl-2", model: "gpt", content: [
                .thinking(Thinking(text: "Plan \"it\"", signature: "sig/1+==")), .thinking(Thinking(text: "", redactedData: "R\u{1}")),
                .thinking(Thinking(text: "")), .text("Checking"), .image(.url("https://example.com/a.png")),
                .toolCall(ToolCall(id: "call_1", name: "get_weather", arguments: #"{"city": "Oslo"}"#)),
                .toolCall(ToolCall(id: "call_2", name: "search", arguments: "")), .text("after the calls"),
                .toolResult(ToolResult(callId: "call_1", text: "dropped")),
            ], finishReason: .toolCalls, usage: Usage(inputTokens: 10, outputTokens: 5, reasoningTokens: 2))),
        Case(name: "answer-refusal.json", response: ChatResponse(
            id: "chatcmpl-3", model: "gpt", content: [.text("I can't help with that.")], finishReason: .refusal, usage: Usage())),
        Case(name: "answer-length.json", response: ChatResponse(
            id: "chatcmpl-4", model: "gpt", content: [.text("cut")], finishReason: .length, usage: Usage(inputTokens: 3, outputTokens: 64))),
        Case(name: "answer-empty.json", response: ChatResponse(id: "chatcmpl-5", model: "gpt", content: [], finishReason: .stop, usage: Usage())),
    ]

    @Test(arguments: cases)
    func bytesAreWhatTheTreeItemsGave(_ c: Case) throws {
        let golden = try Fixtures.bytes("openai/responses-encoder-golden/" + c.name)
        let written = OpenAIResponsesFormat.responseBody(c.response, object: ResponsesStreamEncoderBytesTests.object)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: golden, as: UTF8.self))
    }
}
