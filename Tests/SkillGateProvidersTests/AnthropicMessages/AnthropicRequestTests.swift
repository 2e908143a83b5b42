import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

@Suite struct AnthropicRequestTests {
    static let weather = ToolDefinition(name: "get_weather", description: "Weather for a city.",
                                        parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])

    @Test func urlHeadersAndModel() throws {
        let req = ChatRequest(model: "client-model", messages: [Message(role: .user, text: "hi")])
        let http = try AnthropicTestSupport.format.makeRequest(req, deployment: AnthropicTestSupport.deployment, stream: true)
        #expect(http.method == "POST")
        #expect(http.url == "https://api.anthropic.com/v1/messages")
        #expect(http.headers["x-api-key"] == AnthropicTestSupport.secret)
        #expect(http.headers["anthropic-version"] == "2023-06-01")
        #expect(http.headers["authorization"] == nil)
        let body = try JSONValue.parse(http.body)
        #expect(body["model"] == "claude-test")
        #expect(body["stream"] == true)
        #expect(!String(decoding: http.body, as: UTF8.self).contains(AnthropicTestSupport.secret))
    }

    @Test func maxTokensIsAlwaysSent() throws {
        #expect(try AnthropicTestSupport.wire(ChatRequest(model: "m", messages: [Message(role: .user, text: "x")]))["max_tokens"] == 4096)
        #expect(try AnthropicTestSupport.wire(ChatRequest(model: "m", messages: [Message(role: .user, text: "x")], maxTokens: 300))["max_tokens"] == 300)
    }

    @Test(arguments: [
        (nil as Int?, 2000 as Int?, 4096, 2000),    // default limit above the budget
        (500, 2000, 2500, 2000),                     // limit below the budget: budget added on top
        (8000, 2000, 8000, 2000),
        (1000, nil, 2024, 1024),                     // no budget: Anthropic's minimum
        (nil, 100, 4096, 1024),                      // budget below the minimum is raised
    ])
    func maxTokensExceedsTheThinkingBudget(limit: Int?, budget: Int?, expectedMax: Int, expectedBudget: Int) throws {
        var req = ChatRequest(model: "m", messages: [Message(role: .user, text: "x")], maxTokens: limit)
        req.thinking = ThinkingConfig(enabled: true, budgetTokens: budget)
        let body = try AnthropicTestSupport.wire(req)
        #expect(body["max_tokens"]?.intValue == expectedMax)
        #expect(body["thinking"] == ["type": "enabled", "budget_tokens": .int(expectedBudget)])
    }

    @Test func systemIsHoisted() throws {
        let req = ChatRequest(model: "m", messages: [Message(role: .system, text: "Be brief."), Message(role: .user, text: "hi")])
        let body = try AnthropicTestSupport.wire(req)
        #expect(body["system"] == "Be brief.")
        #expect(body["messages"]?.arrayValue?.count == 1)
        #expect(body["messages"]?.arrayValue?.first?["role"] == "user")
        let two = ChatRequest(model: "m", messages: [Message(role: .system, text: "A"), Message(role: .user, text: "hi"), Message(role: .system, text: "B")])
        #expect(try AnthropicTestSupport.wire(two)["system"] == [["type": "text", "text": "A"], ["type": "text", "text": "B"]])
    }

    @Test func consecutiveToolResultsAndTheNextUserTextShareOneUserTurn() throws {
        let req = ChatRequest(model: "m", messages: [
            Message(role: .user, text: "Weather in Paris and Rome?"),
            Message(role: .assistant, content: [.text("Checking."),
                                                .toolCall(ToolCall(id: "toolu_1", name: "get_weather", arguments: #"{"city":"Paris"}"#)),
                                                .toolCall(ToolCall(id: "toolu_2", name: "get_weather", arguments: #"{"city":"Rome"}"#))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "toolu_1", text: "sunny"))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "toolu_2", text: "no such city", isError: true))]),
            Message(role: .user, text: "Thanks, and in Oslo?"),
        ], tools: [Self.weather])
        let messages = try #require(try AnthropicTestSupport.wire(req)["messages"]?.arrayValue)
        #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant", "user"])
        let last = try #require(messages[2]["content"]?.arrayValue)
        #expect(last.map { $0["type"]?.stringValue } == ["tool_result", "tool_result", "text"])
        #expect(last[0] == ["type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"])
        #expect(last[1]["is_error"] == true)
        let assistant = try #require(messages[1]["content"]?.arrayValue)
        #expect(assistant[1] == ["type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": ["city": "Paris"]])
    }

    @Test func emptyArgumentsBecomeAnEmptyObjectAndInvalidOnesAreACallerError() throws {
        func request(_ args: String) -> ChatRequest {
            ChatRequest(model: "m", messages: [Message(role: .user, text: "x"),
                                               Message(role: .assistant, content: [.toolCall(ToolCall(id: "t1", name: "now", arguments: args))])])
        }
        let body = try AnthropicTestSupport.wire(request("  "))
        #expect(body["messages"]?.arrayValue?[1]["content"]?.arrayValue?[0]["input"] == .object(JSONObject()))
        for bad in [#"{"city": "Par"#, "[1,2]"] {
            #expect {
                _ = try AnthropicTestSupport.wire(request(bad))
            } throws: { error in
                guard let e = error as? GatewayError else { return false }
                return e.kind == .invalidRequest && e.param == "messages[1].content[0].arguments" && e.message.contains("'now'")
            }
        }
    }

    @Test func imagesAsBase64AndURL() throws {
        let req = ChatRequest(model: "m", messages: [Message(role: .user, content: [
            .image(.base64(mediaType: "image/png", data: "iVBORw0KGgo=")),
            .image(.url("data:image/jpeg;base64,/9j/4AAQ")),
            .image(.url("https://example.com/cat.png")),
            .text("What is this?"),
        ])])
        let blocks = try #require(try AnthropicTestSupport.wire(req)["messages"]?.arrayValue?.first?["content"]?.arrayValue)
        #expect(blocks[0]["source"] == ["type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="])
        #expect(blocks[1]["source"] == ["type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"])
        #expect(blocks[2]["source"] == ["type": "url", "url": "https://example.com/cat.png"])
    }

    @Test func thinkingIsReplayedUntouched() throws {
        let req = ChatRequest(model: "m", messages: [
            Message(role: .user, text: "x"),
            Message(role: .assistant, content: [.thinking(Thinking(text: "hmm", signature: "sig==")),
                                                .thinking(Thinking(text: "", redactedData: "ENCRYPTED")), .text("ok")]),
        ])
        let blocks = try #require(try AnthropicTestSupport.wire(req)["messages"]?.arrayValue?[1]["content"]?.arrayValue)
        #expect(blocks[0] == ["type": "thinking", "thinking": "hmm", "signature": "sig=="])
        #expect(blocks[1] == ["type": "redacted_thinking", "data": "ENCRYPTED"])
    }

    /// A tool loop from a client that cannot send Anthropic's signed thinking back (Chat Completions with
    /// `reasoning_effort`): the turn after a tool call without its thinking block goes without thinking instead of
    /// Anthropic's certain 400; a turn whose tool call starts with its signed (or redacted) thinking, and any turn
    /// after the loop, keeps it (decision 0112).
    @Test func aToolTurnWithoutItsSignedThinkingIsSentWithoutThinking() throws {
        let call = ToolCall(id: "toolu_1", name: "get_weather", arguments: #"{"city":"Oslo"}"#)
        let result = Message(role: .tool, content: [.toolResult(ToolResult(callId: "toolu_1", text: "3°C"))])
        func thinking(_ assistant: [ContentBlock], then more: [Message] = []) throws -> JSONValue? {
            var req = ChatRequest(model: "m", messages: [Message(role: .user, text: "Weather in Oslo?"),
                                                         Message(role: .assistant, content: assistant), result] + more,
                                  tools: [Self.weather])
            req.thinking = ThinkingConfig(enabled: true, budgetTokens: 2048)
            return try AnthropicTestSupport.wire(req)["thinking"]
        }
        #expect(try thinking([.toolCall(call)]) == nil)
        #expect(try thinking([.thinking(Thinking(text: "hmm")), .toolCall(call)]) == nil, "unsigned thinking cannot be replayed")
        #expect(try thinking([.thinking(Thinking(text: "hmm", signature: "sig==")), .toolCall(call)])?["type"] == "enabled")
        #expect(try thinking([.thinking(Thinking(text: "", redactedData: "ENC")), .toolCall(call)])?["type"] == "enabled")
        let after = [Message(role: .assistant, text: "3°C in Oslo."), Message(role: .user, text: "And Bergen?")]
        #expect(try thinking([.toolCall(call)], then: after)?["type"] == "enabled", "the loop is over: thinking again")
    }

    static let toolChoiceCases: [(ToolChoice?, Bool?, JSONValue?)] = [
        (.auto, nil, ["type": "auto"]),
        (.required, nil, ["type": "any"]),
        (.named("get_weather"), nil, ["type": "tool", "name": "get_weather"]),
        (ToolChoice.none, nil, ["type": "none"]),
        (nil, false, ["type": "auto", "disable_parallel_tool_use": true]),
        (.required, false, ["type": "any", "disable_parallel_tool_use": true]),
        (nil, true, nil),
    ]

    @Test(arguments: toolChoiceCases)
    func toolChoice(choice: ToolChoice?, parallel: Bool?, expected: JSONValue?) throws {
        let req = ChatRequest(model: "m", messages: [Message(role: .user, text: "x")], tools: [Self.weather],
                              toolChoice: choice, parallelToolCalls: parallel)
        let body = try AnthropicTestSupport.wire(req)
        #expect(body["tool_choice"] == expected)
        #expect(body["tools"] == [["name": "get_weather", "description": "Weather for a city.", "input_schema": Self.weather.parameters]])
    }

    @Test func samplingStopSequencesAndUser() throws {
        let req = ChatRequest(model: "m", messages: [Message(role: .user, text: "x")], temperature: 0.2, topP: 0.9,
                              stopSequences: ["END"], user: "user-7")
        let body = try AnthropicTestSupport.wire(req)
        #expect(body["temperature"]?.doubleValue == 0.2)
        #expect(body["top_p"]?.doubleValue == 0.9)
        #expect(body["stop_sequences"] == ["END"])
        #expect(body["metadata"] == ["user_id": "user-7"])
        #expect(body["stream"] == nil)
        #expect(body["tool_choice"] == nil)
    }

    @Test func toolResultsLeadTheirUserTurn() throws {
        let req = ChatRequest(model: "m", messages: [
            Message(role: .user, text: "q"),
            Message(role: .assistant, content: [.toolCall(ToolCall(id: "t1", name: "get_weather", arguments: "{}"))]),
            Message(role: .user, text: "also this"),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "t1", text: "r"))]),
        ], tools: [Self.weather])
        let turns = try #require(try AnthropicTestSupport.wire(req)["messages"]?.arrayValue)
        #expect(turns.count == 3)
        #expect(turns[2]["content"]?.arrayValue?.map { $0["type"]?.stringValue } == ["tool_result", "text"])
    }

    @Test func anthropicVersionDefaultsWhenTheDeploymentSetsNone() throws {
        var d = AnthropicTestSupport.deployment
        d.extraHeaders = [:]
        let http = try AnthropicTestSupport.format.makeRequest(ChatRequest(model: "m", messages: [Message(role: .user, text: "x")]),
                                                                deployment: d, stream: false)
        #expect(http.headers["anthropic-version"] == AnthropicMessagesFormat.defaultAPIVersion)
        d.extraHeaders = ["anthropic-version": "2099-01-01"]
        let custom = try AnthropicTestSupport.format.makeRequest(ChatRequest(model: "m", messages: [Message(role: .user, text: "x")]),
                                                                  deployment: d, stream: false)
        #expect(custom.headers.values("anthropic-version") == ["2099-01-01"])
    }
}
