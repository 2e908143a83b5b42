import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct OpenAIChatResponseTests {
    let format = OpenAIChatFormat()

    @Test func textCompletionParses() throws {
        let r = try format.parseResponse(try Fixtures.bytes("openai/openai-text.json"), deployment: OpenAIChatTestSupport.deployment)
        #expect(r.id == "chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU")
        #expect(r.model == "gpt-4.1-nano-2025-04-14")
        #expect(r.text.hasPrefix("**Holiday Name:** Galaxy Day"))
        #expect(r.text.utf8.count == 1844)
        #expect(r.finishReason == .stop)
        #expect(r.usage == Usage(inputTokens: 16, outputTokens: 363))
        #expect(r.toolCalls.isEmpty)
    }

    @Test func parallelToolCallsParse() throws {
        let r = try format.parseResponse(try Fixtures.bytes("openai/test_temporal_agent_with_hitl_tool.0.response.json"),
                                         deployment: OpenAIChatTestSupport.deployment)
        #expect(r.toolCalls == [
            ToolCall(id: "call_jYdIdRZHxZTn5bWCq5jlMrJi", name: "delete_file", arguments: #"{"path": ".env"}"#),
            ToolCall(id: "call_TmlTVWQbzrXCZ4jNsCVNbNqu", name: "create_file", arguments: #"{"path": "test.txt"}"#),
        ])
        #expect(r.text.isEmpty)
        #expect(r.finishReason == .toolCalls)
        #expect(r.usage == Usage(inputTokens: 71, outputTokens: 46))
    }

    @Test(arguments: [
        ("stop", false, FinishReason.stop), ("length", false, .length), ("tool_calls", true, .toolCalls),
        ("function_call", true, .toolCalls), ("content_filter", false, .contentFilter), ("stop", true, .toolCalls),
        ("eos_token", false, .other("eos_token")), ("length", true, .length),
    ])
    func finishReasonsMap(raw: String, withCall: Bool, expected: FinishReason) throws {
        let calls = withCall ? #","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]"# : ""
        let body = #"{"id":"x","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"a""# + calls
            + #"},"finish_reason":""# + raw + #""}]}"#
        #expect(try format.parseResponse(Array(body.utf8), deployment: OpenAIChatTestSupport.deployment).finishReason == expected)
    }

    @Test func refusalBecomesTextWithRefusalReason() throws {
        let body = #"{"id":"x","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}"#
        let r = try format.parseResponse(Array(body.utf8), deployment: OpenAIChatTestSupport.deployment)
        #expect(r.text == "I can't help with that.")
        #expect(r.finishReason == .refusal)
    }

    @Test func usageDetailsAndChoiceZeroOfSeveral() throws {
        let body = #"{"id":"x","model":"m","choices":[{"index":1,"message":{"role":"assistant","content":"second"},"finish_reason":"stop"},{"index":0,"message":{"role":"assistant","content":"first"},"finish_reason":"length"}],"usage":{"prompt_tokens":100,"completion_tokens":50,"prompt_tokens_details":{"cached_tokens":64},"completion_tokens_details":{"reasoning_tokens":30}}}"#
        let r = try format.parseResponse(Array(body.utf8), deployment: OpenAIChatTestSupport.deployment)
        #expect(r.text == "first")
        #expect(r.finishReason == .length)
        #expect(r.usage == Usage(inputTokens: 100, outputTokens: 50, cachedInputTokens: 64, reasoningTokens: 30))
    }

    @Test(arguments: ["", "<html><body>Bad gateway</body></html>", #"{"object":"list","data":[]}"#,
                      #"{"error":{"message":"boom","type":"server_error"}}"#])
    func unusableSuccessBodiesThrowNamingTheProvider(body: String) throws {
        let e = try #require(OpenAIChatTestSupport.gatewayError {
            _ = try format.parseResponse(Array(body.utf8), deployment: OpenAIChatTestSupport.deployment)
        })
        #expect(e.provider == "openai")
        #expect(e.message.contains("openai") || e.clientMessage.contains("openai"))
        #expect(e.status >= 500)
    }
}
