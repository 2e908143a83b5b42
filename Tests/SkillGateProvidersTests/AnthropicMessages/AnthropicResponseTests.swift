import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct AnthropicResponseTests {
    static func parse(_ file: String) throws -> ChatResponse {
        try AnthropicTestSupport.format.parseResponse(try Fixtures.bytes("anthropic/" + file), deployment: AnthropicTestSupport.deployment)
    }

    @Test func plainText() throws {
        let r = try Self.parse("anthropic-text.json")
        #expect(r.id == "msg_01VdEjxAP5ahtHKrrRdNBteQ")
        #expect(r.model == "claude-sonnet-4-5-20250929")
        #expect(r.text.hasPrefix("Hello! I'm doing well"))
        #expect(r.finishReason == .stop)
        #expect(r.usage == Usage(inputTokens: 12, outputTokens: 29))
    }

    @Test func toolUseWithNestedInput() throws {
        let r = try Self.parse("anthropic-json-tool.1.json")
        #expect(r.finishReason == .toolCalls)
        let call = try #require(r.toolCalls.first)
        #expect(call.name == "json")
        #expect(call.parsedArguments?["elements"]?.arrayValue?.isEmpty == false)
    }

    @Test func fourParallelToolCallsInOrder() throws {
        let r = try Self.parse("test_multiple_parallel_tool_calls.0.response.json")
        #expect(r.toolCalls.map { $0.parsedArguments?["name"]?.stringValue } == ["Alice", "Bob", "Charlie", "Daisy"])
        #expect(Set(r.toolCalls.map(\.id)).count == 4)
        #expect(r.finishReason == .toolCalls)
        #expect(r.text.hasPrefix("I'll help you find out"))
    }

    @Test func finalAnswerAfterToolResults() throws {
        let r = try Self.parse("test_multiple_parallel_tool_calls.1.response.json")
        #expect(r.toolCalls.isEmpty)
        #expect(!r.text.isEmpty)
        #expect(r.finishReason == .stop)
    }

    @Test func thinkingWithSignatureThenTextThenTool() throws {
        let r = try Self.parse("test_anthropic_tool_with_thinking.0.response.json")
        guard case .thinking(let thinking) = r.content.first else { Issue.record("first block is not thinking"); return }
        #expect(thinking.text.hasPrefix("The user is asking about the largest city"))
        #expect(thinking.signature?.hasPrefix("EqEECkYICxgCKkAo3UA4") == true)
        #expect(r.content.count == 3)
        #expect(r.toolCalls.map(\.arguments) == ["{}"])
        #expect(r.usage == Usage(inputTokens: 398, outputTokens: 155))
    }

    @Test(arguments: [
        ("end_turn", FinishReason.stop), ("stop_sequence", .stop), ("max_tokens", .length), ("tool_use", .toolCalls),
        ("pause_turn", .pauseTurn), ("refusal", .contentFilter), ("brand_new_reason", .other("brand_new_reason")),
    ])
    func stopReasons(raw: String, expected: FinishReason) throws {
        let body = #"{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"text","text":"x"}],"stop_reason":"\#(raw)","usage":{"input_tokens":1,"output_tokens":1}}"#
        let r = try AnthropicTestSupport.format.parseResponse(Array(body.utf8), deployment: AnthropicTestSupport.deployment)
        #expect(r.finishReason == expected)
    }

    @Test func usageIncludesCacheCounters() throws {
        let body = #"{"id":"m","type":"message","content":[],"stop_reason":"end_turn","usage":{"input_tokens":3,"cache_read_input_tokens":40,"cache_creation_input_tokens":2,"output_tokens":9}}"#
        let r = try AnthropicTestSupport.format.parseResponse(Array(body.utf8), deployment: AnthropicTestSupport.deployment)
        #expect(r.usage == Usage(inputTokens: 45, outputTokens: 9, cachedInputTokens: 40, cacheWriteTokens: 2))
    }

    @Test(arguments: ["", "<html><body>502 Bad Gateway</body></html>", "{\"type\":\"message\"", "{\"id\":\"x\"}"])
    func malformedSuccessBodiesAreProtocolErrors(_ body: String) {
        do {
            _ = try AnthropicTestSupport.format.parseResponse(Array(body.utf8), deployment: AnthropicTestSupport.deployment)
            Issue.record("accepted \(body)")
        } catch let e as GatewayError {
            #expect(e.kind == .upstreamProtocol)
            #expect(e.provider == "anthropic")
            #expect(e.message.contains("anthropic") || e.clientMessage.contains("anthropic"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
