import Testing
import SkillGateCore
@testable import SkillGateProviders

/// ChatRequest → Anthropic wire body → inbound decoder → ChatRequest.
@Suite struct AnthropicRoundTripTests {
    static func roundTrip(_ request: ChatRequest) throws -> ChatRequest {
        let body = try AnthropicTestSupport.format.wireBody(for: request, model: request.model, stream: false)
        return try AnthropicMessagesFormat.decodeInboundRequest(body.serializedBytes())
    }

    static let tools = [ToolDefinition(name: "get_weather", description: "Weather.",
                                       parameters: ["type": "object", "properties": ["city": ["type": "string"]]])]

    @Test func toolCallsAndResultsAndMerging() throws {
        let original = ChatRequest(model: "claude-x", messages: [
            Message(role: .system, text: "Be brief."),
            Message(role: .user, text: "Paris and Rome?"),
            Message(role: .assistant, content: [.text("Checking."),
                                                .toolCall(ToolCall(id: "toolu_1", name: "get_weather", arguments: #"{"city":"Paris"}"#)),
                                                .toolCall(ToolCall(id: "toolu_2", name: "get_weather", arguments: #"{"city":"Rome"}"#))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "toolu_1", text: "sunny")),
                                           .toolResult(ToolResult(callId: "toolu_2", text: "failed", isError: true))]),
            Message(role: .user, text: "And Oslo?"),
        ], tools: Self.tools, toolChoice: .named("get_weather"), parallelToolCalls: false, maxTokens: 700,
           temperature: 0.5, topP: 0.75, stopSequences: ["STOP"], user: "u1")
        #expect(try Self.roundTrip(original) == original)
    }

    /// `top_k` is carried both ways; `seed`, the penalties and `logit_bias` have no Messages API field and are not sent.
    @Test func topKSurvivesAndTheOtherSamplingControlsAreNotSent() throws {
        var original = ChatRequest(model: "claude-x", messages: [Message(role: .user, text: "q")], maxTokens: 100)
        original.topK = 5
        var sent = original
        sent.seed = 7; sent.frequencyPenalty = 1; sent.presencePenalty = 1; sent.logitBias = ["1": 1]
        #expect(try Self.roundTrip(sent) == original)
        let wire = try AnthropicTestSupport.wire(sent)
        #expect(wire["top_k"] == 5)
        #expect(wire["seed"] == nil && wire["frequency_penalty"] == nil && wire["presence_penalty"] == nil && wire["logit_bias"] == nil)
    }

    @Test func separateToolMessagesComeBackMergedAndEncodeTheSame() throws {
        let original = ChatRequest(model: "claude-x", messages: [
            Message(role: .user, text: "q"),
            Message(role: .assistant, content: [.toolCall(ToolCall(id: "a", name: "get_weather", arguments: #"{"city":"A"}"#)),
                                                .toolCall(ToolCall(id: "b", name: "get_weather", arguments: #"{"city":"B"}"#))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "a", text: "1"))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "b", text: "2"))]),
        ], tools: Self.tools, maxTokens: 100)
        let back = try Self.roundTrip(original)
        #expect(back.messages.map(\.role) == [.user, .assistant, .tool])
        #expect(back.messages[2].toolResults.map(\.callId) == ["a", "b"])
        #expect(try AnthropicTestSupport.wire(back) == AnthropicTestSupport.wire(original))
    }

    @Test func imagesSurvive() throws {
        let original = ChatRequest(model: "claude-x", messages: [Message(role: .user, content: [
            .text("What is it?"), .image(.base64(mediaType: "image/png", data: "iVBORw0KGgo=")), .image(.url("https://example.com/a.png")),
        ])], maxTokens: 50)
        #expect(try Self.roundTrip(original) == original)
    }

    @Test func thinkingSignaturesAndRedactedDataSurvive() throws {
        let original = ChatRequest(model: "claude-x", messages: [
            Message(role: .user, text: "Largest city?"),
            Message(role: .assistant, content: [.thinking(Thinking(text: "Need the country.", signature: "EqEECkYICxgC==")),
                                                .thinking(Thinking(text: "", redactedData: "EqkECkYIBxgC")),
                                                .toolCall(ToolCall(id: "toolu_9", name: "get_weather", arguments: "{}"))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "toolu_9", text: "France"))]),
        ], tools: Self.tools, maxTokens: 4096, thinking: ThinkingConfig(enabled: true, budgetTokens: 1024))
        #expect(try Self.roundTrip(original) == original)
    }

    @Test(arguments: ["test_multiple_parallel_tool_calls.0.request.json", "test_multiple_parallel_tool_calls.1.request.json",
                      "test_anthropic_model_thinking_part_stream.0.request.json"])
    func recordedRequestsDecodeAndReencodeEquivalently(_ file: String) throws {
        let recordedBytes = try Fixtures.bytes("anthropic/" + file)
        let recorded = try JSONValue.parse(recordedBytes)
        let decoded = try AnthropicMessagesFormat.decodeInboundRequest(recordedBytes)
        let stream = recorded["stream"]?.boolValue ?? false
        let reencoded = try AnthropicTestSupport.format.wireBody(for: decoded, model: decoded.model, stream: stream)
        // Same request semantics after a second decode.
        #expect(try AnthropicMessagesFormat.decodeInboundRequest(reencoded.serializedBytes()) == decoded)
        // And the fields Anthropic reads carry the recorded values.
        for key in ["model", "max_tokens", "system", "thinking", "tool_choice", "tools"] {
            #expect(AnthropicTestSupport.sortedKeys(reencoded[key]) == AnthropicTestSupport.sortedKeys(recorded[key]), "\(key)")
        }
        let recordedTurns = try #require(recorded["messages"]?.arrayValue)
        let turns = try #require(reencoded["messages"]?.arrayValue)
        #expect(turns.map { $0["role"] } == recordedTurns.map { $0["role"] })
        for (turn, recordedTurn) in zip(turns, recordedTurns) {
            let blocks = try #require(turn["content"]?.arrayValue)
            let recordedBlocks = try #require(recordedTurn["content"]?.arrayValue)
            #expect(blocks.count == recordedBlocks.count)
            for (block, recordedBlock) in zip(blocks, recordedBlocks) {
                for key in ["type", "text", "id", "name", "input", "tool_use_id", "content"] {
                    #expect(AnthropicTestSupport.sortedKeys(block[key]) == AnthropicTestSupport.sortedKeys(recordedBlock[key]), "\(key)")
                }
                #expect((block["is_error"]?.boolValue ?? false) == (recordedBlock["is_error"]?.boolValue ?? false))
            }
        }
    }
}
