import Testing
import SkillGateCore

/// The context estimate (`POST /v1/messages/count_tokens`, decisions 0132 and 0133) errs high: three bytes a token (more
/// for punctuation and three-byte scripts), framing per message and tool, whole schemas, the tool-use system prompt, an
/// image at a provider's most. Never below the billing estimate, which errs low.
@Suite struct ContextTokenEstimateTests {
    static let tool = ToolDefinition(name: "get_weather", description: "Weather for a city",
                                     parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])

    @Test func textIsThreeBytesATokenWithFraming() {
        let english = ChatRequest(model: "m", messages: [Message(role: .user, text: String(repeating: "abc", count: 100))])
        #expect(ContextTokenEstimate.inputTokens(of: english) == 100 + ContextTokenEstimate.messageFraming)
        let chinese = ChatRequest(model: "m", messages: [Message(role: .user, text: String(repeating: "漢", count: 100))])
        #expect(ContextTokenEstimate.inputTokens(of: chinese) == 150 + ContextTokenEstimate.messageFraming, "one and a half tokens a CJK character")
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
        let t = ContextTokenEstimate.tokens(text:)
        let expected = 4 * ContextTokenEstimate.messageFraming
            + t("Be brief.") + t("What is this?") + ContextTokenEstimate.imageTokens
            + ContextTokenEstimate.messageFraming + t("call_1") + t("get_weather") + t(#"{"city":"Oslo"}"#)
            + ContextTokenEstimate.messageFraming + t("call_1") + t("Sunny, 21 C")
            + ContextTokenEstimate.toolUseSystemPrompt + ContextTokenEstimate.toolFraming + t("get_weather") + t("Weather for a city")
            + ContextTokenEstimate.tokens(utf8: schema)
        #expect(ContextTokenEstimate.inputTokens(of: request) == expected)
        #expect(ContextTokenEstimate.inputTokens(of: request) > UsageEstimate.tokens(bytes: UsageEstimate.inputBytes(of: request)))
    }
}

/// Where three bytes a token counted below what Anthropic counts (decision 0133): the system prompt Anthropic adds to
/// every request with tools, text of CJK and other three-byte scripts (one and a half to two tokens a character), and
/// punctuation-dense text (JSON, markup: about 2.5 bytes a token).
@Suite struct ContextTokenEstimateHighTests {
    @Test func aRequestWithToolsCountsTheToolUseSystemPrompt() {
        let bare = ChatRequest(model: "m", messages: [Message(role: .user, text: "hi")])
        var withTool = bare
        withTool.tools = [ContextTokenEstimateTests.tool]
        var schema: [UInt8] = []
        ContextTokenEstimateTests.tool.schema.write(to: &schema)
        let toolOnly = ContextTokenEstimate.inputTokens(of: withTool) - ContextTokenEstimate.inputTokens(of: bare)
        // Anthropic documents 313–346 tokens for the Claude 4 models and up to 530 (Claude 3 Opus), beside the tool's own.
        #expect(toolOnly >= 530 + ContextTokenEstimate.toolFraming + schema.count / 3, "\(toolOnly)")
        var twoTools = withTool
        twoTools.tools.append(ToolDefinition(name: "other", description: nil, parameters: ["type": "object"]))
        #expect(ContextTokenEstimate.inputTokens(of: twoTools) - ContextTokenEstimate.inputTokens(of: withTool) < 100,
                "the system prompt is counted once a request, not once a tool")
    }

    @Test func cjkTextCountsOneAndAHalfTokensACharacter() {
        let chinese = ChatRequest(model: "m", messages: [Message(role: .user, text: String(repeating: "漢", count: 100))])
        #expect(ContextTokenEstimate.inputTokens(of: chinese) >= 150 + ContextTokenEstimate.messageFraming)
        let emoji = ChatRequest(model: "m", messages: [Message(role: .user, text: String(repeating: "🦊", count: 100))])
        #expect(ContextTokenEstimate.inputTokens(of: emoji) >= 200 + ContextTokenEstimate.messageFraming)
        let russian = ChatRequest(model: "m", messages: [Message(role: .user, text: String(repeating: "Д", count: 300))])
        #expect(ContextTokenEstimate.inputTokens(of: russian) == 200 + ContextTokenEstimate.messageFraming, "two-byte scripts as before")
    }

    @Test func punctuationDenseTextCountsMore() {
        // 500 bytes of JSON (Anthropic: about 200 tokens by third-party measures; three bytes a token gave 167).
        let json = String(repeating: #"{"name":"get_weather","city":"Oslo","units":"metric"},"#, count: 10).prefix(500)
        let request = ChatRequest(model: "m", messages: [Message(role: .user, text: String(json))])
        #expect(ContextTokenEstimate.inputTokens(of: request) - ContextTokenEstimate.messageFraming >= 200)
        // Plain prose stays near three bytes a token.
        let prose = String(repeating: "the quick brown fox jumps over the lazy dog ", count: 10)
        let plain = ChatRequest(model: "m", messages: [Message(role: .user, text: prose)])
        #expect(ContextTokenEstimate.inputTokens(of: plain) - ContextTokenEstimate.messageFraming == (prose.utf8.count + 2) / 3)
    }
}
