import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct GeminiResponseTests {
    func parse(_ file: String) throws -> ChatResponse {
        try GeminiFormat().parseResponse(try Fixtures.bytes("gemini/\(file)"), deployment: GeminiTest.deployment)
    }

    @Test func threeParallelCallsToOneFunctionGetDistinctIds() throws {
        let response = try parse("test_google_instructions_only_with_tool_calls.0.response.json")
        let calls = response.toolCalls
        #expect(calls.map(\.name) == ["generate_topic", "generate_topic", "generate_topic"])
        #expect(Set(calls.map(\.id)).count == 3)
        #expect(calls.map(\.id) == ["call_wOd8abGuO5rgz7IP5tLEGA_0", "call_wOd8abGuO5rgz7IP5tLEGA_1", "call_wOd8abGuO5rgz7IP5tLEGA_2"])
        #expect(calls.map { $0.signature != nil } == [true, false, false])
        #expect(calls.allSatisfy { $0.arguments == "{}" })
        #expect(response.finishReason == .toolCalls)
        #expect(response.usage == Usage(inputTokens: 83, outputTokens: 30 + 190, reasoningTokens: 190))
        #expect(response.model == "gemini-3-flash-preview")
    }

    @Test func singleCallWithSignature() throws {
        let response = try parse("google-tool-call.json")
        #expect(response.toolCalls.count == 1)
        #expect(response.toolCalls[0].arguments == #"{"location":"San Francisco"}"#)
        #expect(response.toolCalls[0].signature?.hasPrefix("EskgCsYgAb4") == true)
        #expect(response.finishReason == .toolCalls)
        #expect(response.usage == Usage(inputTokens: 29, outputTokens: 15 + 893, reasoningTokens: 893))
        #expect(response.id == "m36LaZGyCLz1xs0PtNSB-QU")
    }

    @Test func thoughtSummaryBecomesThinkingBeforeTheCall() throws {
        let response = try parse("googleai-unary-success-thinking-function-call-thought-summary-signature.json")
        guard case .thinking(let thinking) = response.content.first else {
            Issue.record("expected a thinking block first, got \(response.content)")
            return
        }
        #expect(thinking.text.hasPrefix("**Thinking Through the New Year's Eve Calculation**"))
        #expect(response.text.isEmpty)
        #expect(response.toolCalls.map(\.name) == ["now"])
        #expect(response.toolCalls[0].signature?.hasPrefix("CtQOAVSoXO74") == true)
        #expect(response.usage == Usage(inputTokens: 38, outputTokens: 8 + 501, reasoningTokens: 501))
    }

    @Test(arguments: [
        ("STOP", false, FinishReason.stop), ("STOP", true, .toolCalls), ("MAX_TOKENS", false, .length),
        ("SAFETY", false, .contentFilter), ("RECITATION", false, .contentFilter), ("BLOCKLIST", false, .contentFilter),
        ("PROHIBITED_CONTENT", false, .contentFilter), ("SPII", false, .contentFilter),
        ("OTHER", false, .other("OTHER")), ("SOMETHING_NEW", false, .other("SOMETHING_NEW")),
    ])
    func finishReasonMapping(raw: String, hasCalls: Bool, expected: FinishReason) {
        #expect(GeminiChunkInterpreter.finishReason(raw, hasToolCalls: hasCalls) == expected)
    }

    @Test func cachedTokensAreReported() throws {
        let body = #"{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":2,"cachedContentTokenCount":64,"totalTokenCount":102},"responseId":"r1"}"#
        let response = try GeminiFormat().parseResponse(Array(body.utf8), deployment: GeminiTest.deployment)
        #expect(response.usage == Usage(inputTokens: 100, outputTokens: 2, cachedInputTokens: 64))
        #expect(response.text == "hi")
        #expect(response.finishReason == .stop)
    }

    @Test func callsWithProviderIdsKeepThem() throws {
        let body = #"{"candidates":[{"content":{"parts":[{"functionCall":{"id":"abc","name":"f","args":{"x":1}}}],"role":"model"},"finishReason":"STOP"}]}"#
        let response = try GeminiFormat().parseResponse(Array(body.utf8), deployment: GeminiTest.deployment)
        #expect(response.toolCalls == [ToolCall(id: "abc", name: "f", arguments: #"{"x":1}"#)])
    }

    @Test func idsWithoutAResponseIdDifferAcrossResponses() throws {
        let body = Array(#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"f","args":{}}}],"role":"model"},"finishReason":"STOP"}]}"#.utf8)
        let first = try GeminiFormat().parseResponse(body, deployment: GeminiTest.deployment).toolCalls.map(\.id)
        let second = try GeminiFormat().parseResponse(body, deployment: GeminiTest.deployment).toolCalls.map(\.id)
        #expect(Set(first + second).count == 4)
    }
}
