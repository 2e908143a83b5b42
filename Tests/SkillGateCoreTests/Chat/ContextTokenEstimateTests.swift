import Testing
import SkillGateCore

/// The context estimate (`POST /v1/messages/count_tokens`, decision 0132) errs high: three bytes a token, framing per
/// message and tool, whole schemas, an image at a provider's most. Never below the billing estimate, which errs low.
@Suite struct ContextTokenEstimateTests {
    static let tool = ToolDefinition(name: "get_weather", description: "Weather for a city",
                                     parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])

    @Test func textIsThreeBytesATokenWithFraming() {
        let english = ChatRequest(model: "m", messages: [Message(role: .user, text: String(repeating: "abc", count: 100))])
        #expect(ContextTokenEstimate.inputTokens(of: english) == 100 + ContextTokenEstimate.messageFraming)
        let chinese = ChatRequest(model: "m", messages: [Message(role: .user, text: String(repeating: "漢", count: 100))])
        #expect(ContextTokenEstimate.inputTokens(of: chinese) == 100 + ContextTokenEstimate.messageFraming, "one token a CJK character")
        #expect(ContextTokenEstimate.tokens(bytes: 0) == 0 && ContextTokenEstimate.tokens(bytes: 1) == 1 && ContextTokenEstimate.tokens(bytes: 4) == 2)
    }

    @Test func imagesToolsCallsAndResultsCount() {
        let call = ToolCall(id: "call_1", name: "get_weather", arguments: #"{"city":"Oslo"}"#)
        let request = ChatRequest(model: "m", messages: [
            Message(role: .system, text: "Be brief."),
            Message(role: .user, content: [.text("What is this?"), .image(.url("https://example.com/a.png"))]),
            Message(role: .assistant, content: [.toolCall(call)]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "call_1", content: [.text("Sunny, 21 C")]))]),
        ], tools: [Self.tool])
        var schema: [UInt8] = []
        Self.tool.schema.write(to: &schema)
        let expected = 4 * ContextTokenEstimate.messageFraming
            + ContextTokenEstimate.tokens(bytes: 9) + ContextTokenEstimate.tokens(bytes: 13) + ContextTokenEstimate.imageTokens
            + ContextTokenEstimate.messageFraming + ContextTokenEstimate.tokens(bytes: 6 + 11 + 15)
            + ContextTokenEstimate.messageFraming + ContextTokenEstimate.tokens(bytes: 6) + ContextTokenEstimate.tokens(bytes: 11)
            + ContextTokenEstimate.toolFraming + ContextTokenEstimate.tokens(bytes: 11 + 18 + schema.count)
        #expect(ContextTokenEstimate.inputTokens(of: request) == expected)
        #expect(ContextTokenEstimate.inputTokens(of: request) > UsageEstimate.tokens(bytes: UsageEstimate.inputBytes(of: request)))
    }
}
