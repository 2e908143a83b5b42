import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct GeminiRoundTripTests {
    func roundTrip(_ request: ChatRequest) throws -> ChatRequest {
        let body = try GeminiFormat.requestBody(request).serializedBytes()
        return try GeminiFormat.decodeRequest(body, model: request.model)
    }

    @Test func fullConversationSurvivesTheRoundTrip() throws {
        let weather = ToolDefinition(name: "get_weather", description: "Weather for a city",
                                     parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
        let request = ChatRequest(
            model: "gemini-2.5-pro",
            messages: [
                Message(role: .system, text: "You are a weather bot."),
                Message(role: .user, content: [
                    .text("What is in this picture, and the weather in Bern and Zug?"),
                    .image(.base64(mediaType: "image/png", data: "iVBORw0KGgo=")),
                    .image(.url("https://example.com/cat.jpg")),
                ]),
                Message(role: .assistant, content: [
                    .thinking(Thinking(text: "Two cities, call twice.", signature: "sigA")),
                    .text("Checking."),
                    .thinking(Thinking(text: "", signature: "sigB")),
                    .toolCall(ToolCall(id: "c1", name: "get_weather", arguments: #"{"city":"Bern"}"#, signature: "sigC")),
                    .toolCall(ToolCall(id: "c2", name: "get_weather", arguments: #"{"city":"Zug"}"#)),
                ]),
                Message(role: .tool, content: [
                    .toolResult(ToolResult(callId: "c1", name: "get_weather", text: #"{"temp":21,"sky":"clear"}"#)),
                    .toolResult(ToolResult(callId: "c2", name: "get_weather", text: "service down", isError: true)),
                ]),
                Message(role: .assistant, text: "Bern is clear at 21°C; Zug is unknown."),
                Message(role: .user, content: [.toolResult(ToolResult(callId: "c9", name: "get_weather", text: "late result"))]),
            ],
            tools: [weather], toolChoice: .named("get_weather"), maxTokens: 300, temperature: 0.2, topP: 0.9,
            stopSequences: ["END"],
            responseFormat: ["type": "json_schema", "json_schema": ["name": "response", "schema": ["type": "object", "properties": ["a": ["type": "string"]]]]],
            thinking: ThinkingConfig(enabled: true, budgetTokens: 1024))
        var expected = request
        expected.messages[5].role = .tool  // a user turn of only results reads back as a tool turn
        #expect(try roundTrip(request) == expected)
    }

    /// `topK`, `seed` and the penalties are carried; `logitBias` (OpenAI token ids) is not sent to Gemini.
    @Test func samplingControlsSurviveAndLogitBiasIsDropped() throws {
        var request = ChatRequest(model: "m", messages: [Message(role: .user, text: "x")], temperature: 0.3)
        request.topK = 32; request.seed = 1234; request.presencePenalty = 0.25; request.frequencyPenalty = -0.5
        var expected = request
        request.logitBias = ["50256": -100]
        #expect(try roundTrip(request) == expected)
        expected.seed = nil
        #expect(try roundTrip(expected) == expected)
    }

    @Test(arguments: [ToolChoice.auto, .none, .required])
    func toolChoiceSurvives(_ choice: ToolChoice) throws {
        let request = ChatRequest(model: "m", messages: [Message(role: .user, text: "x")],
                                  tools: [ToolDefinition(name: "t")], toolChoice: choice)
        #expect(try roundTrip(request) == request)
    }

    static let recorded = [
        "test_google_instructions_only_with_tool_calls.0.request.json",
        "test_google_streaming_tool_call_thought_signature.0.request.json",
        "test_google_streaming_tool_call_thought_signature.1.request.json",
    ]

    @Test(arguments: recorded)
    func recordedRequestsDecodeAndReencodeStably(_ file: String) throws {
        let decoded = try GeminiFormat.decodeRequest(try Fixtures.bytes("gemini/\(file)"), model: "gemini-3-pro-preview")
        #expect(!decoded.messages.isEmpty)
        #expect(!decoded.tools.isEmpty)
        // Encoding what was decoded and decoding again keeps the conversation and settings; tool
        // schemas come back sanitised (the SDK's `additionalProperties` is dropped).
        let again = try roundTrip(decoded)
        #expect(again.messages == decoded.messages)
        #expect(again.toolChoice == decoded.toolChoice)
        #expect(again.tools.map(\.name) == decoded.tools.map(\.name))
        #expect(again.tools.allSatisfy { $0.parameters["additionalProperties"] == nil })
        #expect(try roundTrip(again) == again)
    }

    @Test func recordedFollowUpTurnKeepsIdsSignatureAndResult() throws {
        let r = try GeminiFormat.decodeRequest(
            try Fixtures.bytes("gemini/test_google_streaming_tool_call_thought_signature.1.request.json"), model: "m")
        #expect(r.messages.map(\.role) == [.user, .assistant, .tool])
        let call = try #require(r.messages[1].toolCalls.first)
        #expect(call.id == "pyd_ai_29bf73b69e02448588e15893d47a3e7e")
        #expect(call.name == "get_country" && call.arguments == "{}")
        #expect(call.signature?.hasPrefix("EpwICpkIAXLI2nxlU6gs") == true)
        #expect(r.messages[2].toolResults == [ToolResult(callId: call.id, name: "get_country", text: #"{"return_value":"Mexico"}"#)])
        #expect(r.tools.first?.parameters == ["additionalProperties": false, "properties": [:], "type": "object"])
    }

    @Test func recordedSystemInstructionAndForcedChoice() throws {
        let r = try GeminiFormat.decodeRequest(
            try Fixtures.bytes("gemini/test_google_instructions_only_with_tool_calls.0.request.json"), model: "m")
        #expect(r.systemText == "Tell three jokes. Generate topics with the generate_topic tool.")
        #expect(r.toolChoice == .required)
        #expect(r.tools.map(\.name) == ["generate_topic", "final_result"])
    }

    @Test func responsesWithoutIdsAnswerTheMatchingCall() throws {
        let body = #"{"contents":[{"role":"model","parts":[{"functionCall":{"name":"a","args":{}}},{"functionCall":{"name":"b","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"b","response":{"result":"B"}}},{"functionResponse":{"name":"a","response":{"result":"A"}}}]}]}"#
        let r = try GeminiFormat.decodeRequest(Array(body.utf8), model: "m")
        #expect(r.messages[0].toolCalls.map(\.id) == ["call_0_0", "call_0_1"])
        #expect(r.messages[1].toolResults.map(\.callId) == ["call_0_1", "call_0_0"])
    }

    @Test func malformedRequestBodiesAreCallerErrors() {
        #expect(throws: GatewayError.self) { try GeminiFormat.decodeRequest(Array("{".utf8), model: "m") }
        #expect(throws: GatewayError.self) { try GeminiFormat.decodeRequest(Array(#"{"model":"x"}"#.utf8), model: "m") }
    }
}
