import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct ResponsesResponseTests {
    static let object = ResponsesObject(id: "resp_abc", createdAt: 1_700_000_000, model: "up/gpt",
                                        echo: ResponsesEcho(instructions: "Be brief.", maxOutputTokens: 100))
    static let usage = Usage(inputTokens: 120, outputTokens: 40, cachedInputTokens: 100, reasoningTokens: 12)

    @Test func aTextAnswerIsOneMessageItemWithUsageDetails() throws {
        let body = try JSONValue.parse(OpenAIResponsesFormat.responseBody(ChatResponse(id: "x", model: "gpt", content: [.text("Hel"), .text("lo")], finishReason: .stop,
                                                                  usage: Self.usage), object: Self.object))
        #expect(body["id"] == "resp_abc" && body["object"] == "response" && body["status"] == "completed" && body["model"] == "up/gpt")
        #expect(body["created_at"] == 1_700_000_000 && body["error"] == .null && body["incomplete_details"] == .null)
        #expect(body["instructions"] == "Be brief." && body["max_output_tokens"] == 100 && body["store"] == true)
        #expect(body["output"] == [["id": "msg_abc_0", "type": "message", "status": "completed", "role": "assistant",
                                    "content": [["type": "output_text", "text": "Hello", "annotations": [], "logprobs": []]]]])
        #expect(body["usage"] == ["input_tokens": 120, "input_tokens_details": ["cached_tokens": 100], "output_tokens": 40,
                                  "output_tokens_details": ["reasoning_tokens": 12], "total_tokens": 160])
    }

    @Test func reasoningAndToolCallsAreItemsInOrder() throws {
        let content: [ContentBlock] = [.thinking(Thinking(text: "Think.", signature: "sig")), .text("Calling."),
                                       .toolCall(ToolCall(id: "call_1", name: "get_weather", arguments: #"{"city":"Oslo"}"#)),
                                       .thinking(Thinking(text: "", redactedData: "opaque"))]
        let body = try JSONValue.parse(OpenAIResponsesFormat.responseBody(ChatResponse(id: "", model: "", content: content, finishReason: .toolCalls), object: Self.object))
        let output = try #require(body["output"]?.arrayValue)
        #expect(output.map { $0["type"] } == ["reasoning", "message", "function_call", "reasoning"])
        #expect(output.map { $0["id"] } == ["rs_abc_0", "msg_abc_1", "fc_abc_2", "rs_abc_3"])
        #expect(output[0]["summary"] == [["type": "summary_text", "text": "Think."]] && output[0]["encrypted_content"] == "sig")
        #expect(output[2] == ["id": "fc_abc_2", "type": "function_call", "status": "completed", "arguments": #"{"city":"Oslo"}"#,
                              "call_id": "call_1", "name": "get_weather"])
        #expect(output[3]["encrypted_content"] == "redacted:opaque" && output[3]["summary"] == [])
    }

    @Test(arguments: [(FinishReason.length, "max_output_tokens"), (.contentFilter, "content_filter")])
    func aTruncatedOrFilteredAnswerIsIncomplete(reason: FinishReason, detail: String) throws {
        let body = try JSONValue.parse(OpenAIResponsesFormat.responseBody(ChatResponse(id: "", model: "", content: [.text("Par")], finishReason: reason), object: Self.object))
        #expect(body["status"] == "incomplete" && body["incomplete_details"] == ["reason": .string(detail)])
    }

    @Test func aRefusalIsARefusalPart() throws {
        let body = try JSONValue.parse(OpenAIResponsesFormat.responseBody(ChatResponse(id: "", model: "", content: [.text("I can't.")], finishReason: .refusal), object: Self.object))
        #expect(body["output"]?.arrayValue?.first?["content"] == [["type": "refusal", "refusal": "I can't."]])
    }

    /// What the gateway stores for `previous_response_id` reads back as the same conversation,
    /// signatures and failed results included.
    @Test func aConversationSurvivesItsStoredForm() throws {
        let conversation: [Message] = [
            Message(role: .system, text: "Rules."),
            Message(role: .user, content: [.text("Hi"), .image(.url("https://example.com/a.png"))]),
            Message(role: .assistant, content: [.thinking(Thinking(text: "Hm.", signature: "s1")), .text("Let me check."),
                                                .toolCall(ToolCall(id: "c1", name: "weather", arguments: "{}", signature: "gemini-sig"))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "c1", name: "weather", text: "boom", isError: true))]),
            Message(role: .assistant, content: [.thinking(Thinking(text: "", redactedData: "xyz")), .text("Sorry.")]),
        ]
        let stored = OpenAIResponsesFormat.conversationJSON(conversation)
        let items = try #require(try JSONValue.parse(stored).arrayValue)
        #expect(try OpenAIResponsesFormat.conversation(fromItems: items) == conversation)
    }

    @Test func errorsHaveTheOpenAIShapeAndNameAMissingPreviousResponse() {
        var missing = GatewayError(domain: .caller, kind: .notFound, status: 404, message: "previous response 'resp_x' was not found")
        missing.param = "previous_response_id"
        #expect(missing.responsesBody() == ["error": ["message": "previous response 'resp_x' was not found", "type": "invalid_request_error",
                                                      "param": "previous_response_id", "code": "previous_response_not_found"]])
        let bad = GatewayError.invalidRequest("`input` is empty", param: "input")
        #expect(bad.responsesBody()["error"]?["code"] == "invalid_request")
    }
}

@Suite struct ResponsesEchoTests {
    /// The `tools` the response repeats are the client's, byte for byte but without line breaks (a streamed snapshot
    /// is one SSE `data:` line), also when the body is pretty-printed (CRLF too), its strings hold escapes, brackets
    /// and spaces.
    @Test(arguments: [
        #"{"model":"m","input":"x","tools":[{"type":"function","name":"f","description":"a \"quoted\" [bracket] {brace}","parameters":{"type":"object","properties":{"n":{"type":"integer","minimum":1e2}}}}],"store":false}"#,
        "{\n  \"tools\" : [ {\"type\": \"function\", \"name\": \"f\", \"description\": \"tab\\t and \\u00e9 \\\\\", \"strict\": true,\n \"parameters\": {\"type\": \"object\"} } ],\n  \"model\": \"m\", \"metadata\": {\"tools\": \"not these\"}, \"input\": \"x\"\n}",
        "{\r\n\"tools\":\r\n[{\"type\":\"function\",\"name\":\"f\",\r\n\"description\":\"d\"}],\"model\":\"m\",\"input\":\"x\"}",
    ])
    func theRepeatedToolsEqualTheParsedOnes(body: String) throws {
        let inbound = try OpenAIResponsesFormat.decodeInboundRequest(Array(body.utf8))
        let raw = try #require(inbound.echo.toolsBytes)
        #expect(!raw.contains(0x0A) && !raw.contains(0x0D))
        #expect(String(decoding: raw, as: UTF8.self).filter { $0 != " " }.hasPrefix(#"[{"type":"function","name":"f","#))
        if !body.contains("\n") { #expect(body.contains(String(decoding: raw, as: UTF8.self))) }
        #expect(try JSONValue.parse(raw) == inbound.echo.tools)
        let object = ResponsesObject(id: "resp_1", createdAt: 1, model: "m", echo: inbound.echo)
        let written = try JSONValue.parse(object.bytes(status: .completed, output: [], usage: Usage()))
        #expect(written["tools"] == inbound.echo.tools)
        #expect(!object.bytes(status: .completed, output: [], usage: nil).contains(0x0A))
    }
}

@Suite struct ResponsesIdTests {
    @Test func idsGrowWithTimeAndKeepTheUniquePart() {
        let a = OpenAIResponsesFormat.responseId(milliseconds: 1_767_225_600_000, unique: "ffff0000")
        let b = OpenAIResponsesFormat.responseId(milliseconds: 1_767_225_600_001, unique: "00000000")
        #expect(a == "resp_019b76daa800ffff0000")  // 1_767_225_600_000 = 0x19b76daa800
        #expect(a < b && b.hasSuffix("00000000") && b.hasPrefix("resp_"))
    }
}
