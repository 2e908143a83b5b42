import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

@Suite struct OpenAIChatRequestTests {
    let format = OpenAIChatFormat()

    static let weather = ToolDefinition(name: "get_weather", description: "Weather for a city.",
                                        parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]],
                                        strict: true)

    /// A conversation with every kind of content this format carries.
    static let conversation = ChatRequest(
        model: "gpt-4o-mini",
        messages: [
            Message(role: .system, text: "Be brief."),
            Message(role: .user, content: [.text("What is on this picture, and the weather in Paris and Rome?"),
                                           .image(.url("https://example.com/cat.png")),
                                           .image(.base64(mediaType: "image/png", data: "iVBORw0KGgo="))]),
            Message(role: .assistant, content: [
                .text("Let me check."),
                .toolCall(ToolCall(id: "call_1", name: "get_weather", arguments: #"{"city":"Paris"}"#)),
                .toolCall(ToolCall(id: "call_2", name: "get_weather", arguments: #"{"city":"Rome"}"#)),
            ]),
            Message(role: .tool, content: [
                .toolResult(ToolResult(callId: "call_1", name: "get_weather", text: "Sunny, 22C")),
                .toolResult(ToolResult(callId: "call_2", name: "get_weather", text: "Rain, 15C")),
            ]),
            Message(role: .user, text: "Thanks. And tomorrow?"),
        ],
        tools: [weather], toolChoice: .named("get_weather"), parallelToolCalls: true, maxTokens: 300,
        temperature: 0.5, topP: 0.9, stopSequences: ["END"], responseFormat: ["type": "json_object"], user: "u-1")

    @Test func roundTripsThroughTheInboundDecoder() throws {
        let body = format.requestBody(Self.conversation, model: "gpt-4o-mini", stream: false)
        let decoded = try OpenAIChatFormat.decodeInboundRequest(body.serializedBytes())
        #expect(decoded.request == Self.conversation)
        #expect(decoded.stream == false)
    }

    @Test(arguments: [ToolChoice.auto, .none, .required, .named("get_weather")])
    func toolChoiceRoundTrips(choice: ToolChoice) throws {
        var request = Self.conversation
        request.toolChoice = choice
        let body = format.requestBody(request, model: "m", stream: true)
        #expect(try OpenAIChatFormat.decodeInboundRequest(body.serializedBytes()).request.toolChoice == choice)
    }

    @Test func toolResultsBecomeOneToolMessageEach() throws {
        let body = format.requestBody(Self.conversation, model: "m", stream: false)
        let messages = try #require(body["messages"]?.arrayValue)
        #expect(messages.map { $0["role"]?.stringValue ?? "?" } == ["system", "user", "assistant", "tool", "tool", "user"])
        #expect(messages[3] == ["role": "tool", "tool_call_id": "call_1", "content": "Sunny, 22C"])
        #expect(messages[1]["content"]?[2]?["image_url"]?["url"] == "data:image/png;base64,iVBORw0KGgo=")
        #expect(messages[2]["tool_calls"]?[1]?["function"]?["arguments"] == #"{"city":"Rome"}"#)
    }

    @Test func streamingAsksForUsage() {
        let body = format.requestBody(Self.conversation, model: "m", stream: true)
        #expect(body["stream"] == true)
        #expect(body["stream_options"] == ["include_usage": true])
        #expect(format.requestBody(Self.conversation, model: "m", stream: false)["stream_options"] == nil)
        let quiet = OpenAIChatFormat(includeStreamUsage: false).requestBody(Self.conversation, model: "m", stream: true)
        #expect(quiet["stream_options"] == nil)
        #expect(quiet["stream"] == true)
    }

    @Test func thinkingIsDroppedAndNothingOfItLeaks() throws {
        var request = Self.conversation
        request.messages[2].content.insert(.thinking(Thinking(text: "secret reasoning", signature: "sig-abc")), at: 0)
        request.thinking = ThinkingConfig(enabled: true, budgetTokens: 2048)
        let text = format.requestBody(request, model: "m", stream: false).serialized()
        #expect(!text.contains("secret reasoning"))
        #expect(!text.contains("sig-abc"))
        #expect(!text.contains("2048"))
    }

    @Test func toolFieldsOnlyWithTools() {
        var request = Self.conversation
        request.tools = []
        let body = format.requestBody(request, model: "m", stream: false)
        #expect(body["tool_choice"] == nil)
        #expect(body["parallel_tool_calls"] == nil)
        #expect(body["tools"] == nil)
    }

    @Test(arguments: [("openai", OpenAIChatFormat.TokenLimitField.automatic, "max_completion_tokens"),
                      ("deepseek", .automatic, "max_tokens"), ("openai", .maxTokens, "max_tokens"),
                      ("groq", .maxCompletionTokens, "max_completion_tokens")])
    func tokenLimitField(provider: String, field: OpenAIChatFormat.TokenLimitField, expected: String) throws {
        let d = Deployment(providerId: provider, model: "m1", baseURL: "http://127.0.0.1:9/v1", auth: .bearer, apiKey: "sk-x")
        let http = try OpenAIChatFormat(tokenLimitField: field).makeRequest(Self.conversation, deployment: d, stream: false)
        let body = try JSONValue.parse(http.body)
        #expect(body[expected] == 300)
        #expect(body["model"] == "m1")
        #expect(http.url == "http://127.0.0.1:9/v1/chat/completions")
        #expect(http.headers["authorization"] == "Bearer sk-x")
    }

    @Test func emptyConversationIsRefused() {
        let e = OpenAIChatTestSupport.gatewayError {
            _ = try format.makeRequest(ChatRequest(model: "m", messages: []), deployment: OpenAIChatTestSupport.deployment, stream: false)
        }
        #expect(e?.kind == .invalidRequest)
        #expect(e?.param == "messages")
    }
}

fileprivate extension JSONValue {
    /// Element `i` of an array value.
    subscript(i: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(i) else { return nil }
        return a[i]
    }
}
