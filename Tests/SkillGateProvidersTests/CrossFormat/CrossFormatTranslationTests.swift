import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// An OpenAI-shaped conversation with two parallel calls to the same tool and their results goes
/// through the Anthropic and Gemini adapters and maps back to the same canonical conversation;
/// a response with two parallel calls to the same tool maps back to the same canonical response.
@Suite struct CrossFormatTranslationTests {
    static let openAIConversation = #"""
    {"model":"gpt-test","messages":[
      {"role":"system","content":"You are a weather assistant."},
      {"role":"user","content":"Weather in Paris and London?"},
      {"role":"assistant","content":null,"tool_calls":[
        {"id":"call_paris","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},
        {"id":"call_london","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"London\"}"}}]},
      {"role":"tool","tool_call_id":"call_paris","content":"18°C, sunny"},
      {"role":"tool","tool_call_id":"call_london","content":"12°C, rain"},
      {"role":"user","content":"Which is warmer?"}],
     "tools":[{"type":"function","function":{"name":"get_weather","description":"Current weather",
       "parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]}
    """#

    /// What must survive any translation: roles, texts, calls (id, name, parsed arguments), results (call id, text).
    enum Item: Hashable {
        case text(Role, String)
        case call(id: String, name: String, arguments: JSONValue?)
        case result(callId: String, text: String)
    }

    static func items(_ messages: [Message], keepIds: Bool = true) -> [Item] {
        messages.flatMap { m in
            m.content.compactMap { block -> Item? in
                switch block {
                case .text(let t): return .text(m.role == .tool ? .user : m.role, t)
                case .toolCall(let c): return .call(id: keepIds ? c.id : "", name: c.name, arguments: c.parsedArguments)
                case .toolResult(let r): return .result(callId: keepIds ? r.callId : "", text: r.text)
                default: return nil
                }
            }
        }
    }

    static func canonical() throws -> ChatRequest {
        try OpenAIChatFormat.decodeInboundRequest(Array(openAIConversation.utf8)).request
    }

    @Test func conversationSurvivesAnthropic() throws {
        let request = try Self.canonical()
        let wire = try AnthropicMessagesFormat().wireBody(for: request, model: "claude-test", stream: false)
        let back = try AnthropicMessagesFormat.decodeInboundRequest(wire.serializedBytes())
        #expect(Self.items(back.messages) == Self.items(request.messages))
        #expect(back.tools.map(\.name) == ["get_weather"])
        #expect(back.tools.first?.parameters == request.tools.first?.parameters)
    }

    @Test func conversationSurvivesGemini() throws {
        let request = try Self.canonical()
        let wire = try GeminiFormat.requestBody(request, model: "gemini-test")
        let back = try GeminiFormat.decodeRequest(wire.serializedBytes(), model: "gemini-test")
        // Gemini pairs results with calls by name and order; the call ids are SkillGate's to keep.
        let original = Self.items(request.messages, keepIds: false)
        #expect(Self.items(back.messages, keepIds: false) == original)
        let calls = back.messages.flatMap(\.toolCalls)
        #expect(calls.count == 2)
        #expect(Set(calls.map(\.id)).count == 2, "parallel calls to the same tool must keep distinct ids")
    }

    static let parallelCallsResponse = ChatResponse(
        id: "resp_1", model: "m",
        content: [
            .toolCall(ToolCall(id: "call_a", name: "get_weather", arguments: #"{"city":"Paris"}"#)),
            .toolCall(ToolCall(id: "call_b", name: "get_weather", arguments: #"{"city":"London"}"#)),
        ],
        finishReason: .toolCalls, usage: Usage(inputTokens: 50, outputTokens: 20))

    @Test func responseSurvivesAnthropicAndOpenAI() throws {
        let deployment = Deployment(providerId: "anthropic", model: "m", baseURL: "http://127.0.0.1:1", auth: .xApiKey)
        let anthropic = AnthropicMessagesFormat.inboundResponseBody(Self.parallelCallsResponse).serializedBytes()
        let viaAnthropic = try AnthropicMessagesFormat().parseResponse(anthropic, deployment: deployment)
        let openAI = OpenAIChatFormat.encodeInboundResponse(Self.parallelCallsResponse, id: "resp_1", model: "m", created: 0).serializedBytes()
        let viaOpenAI = try OpenAIChatFormat.parseCompletion(openAI, provider: "openai")
        let expected = Self.items([Self.parallelCallsResponse.message])
        #expect(Self.items([viaAnthropic.message]) == expected)
        #expect(Self.items([viaOpenAI.message]) == expected)
        #expect(viaAnthropic.finishReason == .toolCalls && viaOpenAI.finishReason == .toolCalls)
        #expect(viaAnthropic.usage.outputTokens == 20 && viaOpenAI.usage.outputTokens == 20)
    }

    @Test func geminiParallelCallsToTheSameToolMapToTheSameCanonicalResponse() throws {
        let body = #"""
        {"candidates":[{"content":{"role":"model","parts":[
            {"functionCall":{"name":"get_weather","args":{"city":"Paris"}}},
            {"functionCall":{"name":"get_weather","args":{"city":"London"}}}]},"finishReason":"STOP"}],
         "usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":20,"totalTokenCount":70},"responseId":"resp_1"}
        """#
        let response = try GeminiFormat.response(from: Array(body.utf8), provider: "gemini")
        #expect(Self.items([response.message], keepIds: false) == Self.items([Self.parallelCallsResponse.message], keepIds: false))
        #expect(Set(response.toolCalls.map(\.id)).count == 2)
        #expect(response.finishReason == .toolCalls)
    }
}
