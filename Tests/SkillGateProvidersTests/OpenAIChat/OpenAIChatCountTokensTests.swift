import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// OpenAI's count for an OpenAI-format deployment (decision 0136): asked at `{base}/responses/input_tokens` only when the
/// deployment counts (OpenAI's own API; compatible APIs lack the endpoint), with the conversation, tools and output format
/// as a Responses body of only the members that endpoint takes.
@Suite struct OpenAIChatCountTokensTests {
    static func deployment(counts: Bool) -> Deployment {
        var d = Deployment(providerId: "openai", model: "gpt-test", baseURL: "https://api.openai.com/v1", auth: .bearer, apiKey: "sk-test-secret-0001")
        d.countsInputTokens = counts
        return d
    }

    @Test func aDeploymentThatDoesNotCountIsNotAsked() throws {
        let request = ChatRequest(model: "light", messages: [Message(role: .user, text: "hi")])
        #expect(try OpenAIChatFormat().makeCountTokensRequest(request, deployment: Self.deployment(counts: false)) == nil)
        let asked = try #require(try OpenAIChatFormat().makeCountTokensRequest(request, deployment: Self.deployment(counts: true)))
        #expect(asked.method == "POST" && asked.url == "https://api.openai.com/v1/responses/input_tokens")
        #expect(asked.headers["authorization"] == "Bearer sk-test-secret-0001" && asked.headers["content-type"] == "application/json")
        #expect(try JSONValue.parse(asked.body) == ["model": "gpt-test", "input": [["type": "message", "role": "user", "content": "hi"]]])
    }

    /// A conversation with everything the Chat Completions body carries: system, a user image, an earlier answer with
    /// thinking, text and a call, its result, and tools with a choice and an output schema. Answer-only members
    /// (`max_tokens`, `temperature`, `stop`) are not sent.
    @Test func theConversationIsAResponsesBody() throws {
        var request = ChatRequest(model: "light", messages: [
            Message(role: .system, text: "Be brief."),
            Message(role: .user, content: [.text("What is in this picture?"), .image(.url("https://example.com/cat.png"))]),
            Message(role: .assistant, content: [.thinking(Thinking(text: "Look it up.", signature: "sig")), .text("Let me check."),
                                                .toolCall(ToolCall(id: "call_1", name: "lookup", arguments: #"{"q":"cat"}"#))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "call_1", name: "lookup", text: "A cat."))]),
            Message(role: .user, text: "Thanks."),
        ], tools: [ToolDefinition(name: "lookup", description: "Look something up", parameters: ["type": "object", "properties": ["q": ["type": "string"]]]),
                   ToolDefinition(name: "strict_one", parameters: ["type": "object", "properties": [:]], strict: true)],
           toolChoice: .named("lookup"), parallelToolCalls: false, maxTokens: 100, temperature: 0.5, stopSequences: ["END"],
           responseFormat: ["type": "json_schema", "json_schema": ["name": "answer", "schema": ["type": "object"], "strict": true]])
        request.seed = 7
        let asked = try #require(try OpenAIChatFormat().makeCountTokensRequest(request, deployment: Self.deployment(counts: true)))
        let expected: JSONValue = [
            "model": "gpt-test",
            "input": [
                ["type": "message", "role": "system", "content": "Be brief."],
                ["type": "message", "role": "user", "content": [["type": "input_text", "text": "What is in this picture?"],
                                                                ["type": "input_image", "image_url": "https://example.com/cat.png", "detail": "auto"]]],
                ["type": "message", "role": "assistant", "content": "Let me check."],
                ["type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": #"{"q":"cat"}"#],
                ["type": "function_call_output", "call_id": "call_1", "output": "A cat."],
                ["type": "message", "role": "user", "content": "Thanks."],
            ],
            "tools": [["type": "function", "name": "lookup", "description": "Look something up",
                       "parameters": ["type": "object", "properties": ["q": ["type": "string"]]], "strict": false],
                      ["type": "function", "name": "strict_one", "parameters": ["type": "object", "properties": [:]], "strict": true]],
            "tool_choice": ["type": "function", "name": "lookup"],
            "parallel_tool_calls": false,
            "text": ["format": ["type": "json_schema", "name": "answer", "schema": ["type": "object"], "strict": true]],
        ]
        #expect(try JSONValue.parse(asked.body) == expected, "\(String(decoding: asked.body, as: UTF8.self))")
    }

    @Test(arguments: [(#"{"object":"response.input_tokens","input_tokens":42}"#, 42), (#"{"input_tokens":-1}"#, nil),
                      (#"{"error":{"message":"no"}}"#, nil), ("<html>", nil)] as [(String, Int?)])
    func theCountIsRead(_ body: String, _ expected: Int?) {
        #expect(OpenAIChatFormat().parseCountTokens(Array(body.utf8)) == expected)
    }
}
