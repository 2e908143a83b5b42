import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct ResponsesInboundRequestTests {
    static func decode(_ json: String) throws -> ResponsesInboundRequest {
        try OpenAIResponsesFormat.decodeInboundRequest(Array(json.utf8))
    }

    @Test func aStringInputWithInstructionsIsASystemAndAUserMessage() throws {
        let r = try Self.decode(#"{"model":"light","instructions":"Be brief.","input":"Hello"}"#)
        #expect(r.request.model == "light")
        #expect(r.request.messages == [Message(role: .system, text: "Be brief."), Message(role: .user, text: "Hello")])
        #expect(r.hasInstructions && r.inputMessages.count == 1)
        #expect(r.store && !r.stream && r.previousResponseId == nil)
        #expect(r.echo.instructions == "Be brief." && r.echo.toolChoice == "auto" && r.echo.textFormat == ["type": "text"])
    }

    @Test func itemsOfOneTurnGroupIntoOneMessageAndResultsGetTheirToolName() throws {
        let r = try Self.decode(#"""
        {"model":"m","input":[
          {"role":"developer","content":"Use tools."},
          {"type":"message","role":"user","content":[{"type":"input_text","text":"Weather in "},{"type":"input_text","text":"Oslo?"},
                                                     {"type":"input_image","image_url":"data:image/png;base64,iVBO"}]},
          {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Need the tool."}],"encrypted_content":"sig-1"},
          {"id":"msg_1","type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Checking.","annotations":[]}]},
          {"type":"function_call","id":"fc_1","call_id":"call_a","name":"get_weather","arguments":"{\"city\":\"Oslo\"}","status":"completed"},
          {"type":"function_call","call_id":"call_b","name":"get_time","arguments":"{}"},
          {"type":"function_call_output","call_id":"call_a","output":"Sunny"},
          {"type":"function_call_output","call_id":"call_b","output":[{"type":"input_text","text":"12:00"}]}
        ]}
        """#)
        #expect(r.request.messages.map(\.role) == [.system, .user, .assistant, .tool])
        #expect(r.request.messages[1].content == [.text("Weather in "), .text("Oslo?"), .image(.base64(mediaType: "image/png", data: "iVBO"))])
        #expect(r.request.messages[2].content == [
            .thinking(Thinking(text: "Need the tool.", signature: "sig-1")), .text("Checking."),
            .toolCall(ToolCall(id: "call_a", name: "get_weather", arguments: #"{"city":"Oslo"}"#)),
            .toolCall(ToolCall(id: "call_b", name: "get_time", arguments: "{}")),
        ])
        #expect(r.request.messages[3].toolResults == [ToolResult(callId: "call_a", name: "get_weather", text: "Sunny"),
                                                      ToolResult(callId: "call_b", name: "get_time", text: "12:00")])
        #expect(!r.hasInstructions)
    }

    @Test func toolsChoiceFormatLimitsAndReasoningMapToTheChatModel() throws {
        let r = try Self.decode(#"""
        {"model":"m","input":"x","stream":true,"store":false,"previous_response_id":"resp_1","max_output_tokens":300,"temperature":0.5,
         "top_p":0.9,"parallel_tool_calls":false,"reasoning":{"effort":"high"},"metadata":{"k":"v"},"include":["reasoning.encrypted_content"],
         "truncation":"auto","prompt_cache_key":"agent-7","tools":[{"type":"function","name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{}},"strict":true}],
         "tool_choice":{"type":"function","name":"get_weather"},
         "text":{"format":{"type":"json_schema","name":"answer","schema":{"type":"object"},"strict":true}}}
        """#)
        #expect(r.stream && !r.store && r.previousResponseId == "resp_1")
        #expect(r.request.tools == [ToolDefinition(name: "get_weather", description: "Weather", parameters: ["type": "object", "properties": [:]], strict: true)])
        #expect(r.request.toolChoice == .named("get_weather"))
        #expect(r.request.parallelToolCalls == false && r.request.maxTokens == 300 && r.request.temperature == 0.5 && r.request.topP == 0.9)
        #expect(r.request.responseFormat == ["type": "json_schema", "json_schema": ["name": "answer", "schema": ["type": "object"], "strict": true]])
        #expect(r.request.thinking == ThinkingConfig(enabled: true))
        #expect(r.request.promptCacheKey == "agent-7")
        #expect(r.echo.reasoningEffort == "high" && r.echo.metadata == ["k": "v"] && r.echo.store == false)
        #expect(r.echo.tools.arrayValue?.count == 1 && r.echo.toolChoice == ["type": "function", "name": "get_weather"])

        let plain = try Self.decode(#"{"model":"m","input":"x","text":{"format":{"type":"json_object"}},"reasoning":{"effort":"minimal"}}"#)
        #expect(plain.request.responseFormat == ["type": "json_object"])
        #expect(plain.request.thinking == ThinkingConfig(enabled: false))
    }

    @Test func onlyPreviousResponseIdMayStandInForInput() throws {
        let r = try Self.decode(#"{"model":"m","previous_response_id":"resp_9"}"#)
        #expect(r.request.messages.isEmpty && r.previousResponseId == "resp_9")
    }

    /// Malformed bodies: a 400 naming the field (with the item's index), never a crash.
    @Test(arguments: [
        (#"{"input":"x"}"#, "model"),
        (#"{"model":"m"}"#, "input"),
        (#"{"model":"m","input":[]}"#, "input"),
        (#"{"model":"m","input":7}"#, "input"),
        (#"{"model":"m","input":["hi"]}"#, "input[0]"),
        (#"{"model":"m","input":[{"content":"no role"}]}"#, "input[0]"),
        (#"{"model":"m","input":[{"role":"user","content":"a"},{"type":"function_call","name":"f","arguments":"{}"}]}"#, "input[1].call_id"),
        (#"{"model":"m","input":[{"type":"function_call","call_id":"c","arguments":"{}"}]}"#, "input[0].name"),
        (#"{"model":"m","input":[{"type":"function_call","call_id":"c","name":"f","arguments":5}]}"#, "input[0].arguments"),
        (#"{"model":"m","input":[{"type":"function_call_output","call_id":"c"}]}"#, "input[0].output"),
        (#"{"model":"m","input":[{"type":"function_call_output","output":"x"}]}"#, "input[0].call_id"),
        (#"{"model":"m","input":[{"type":"message","role":"robot","content":"x"}]}"#, "input[0].role"),
        (#"{"model":"m","input":[{"role":"user","content":[{"type":"input_file","file_id":"f"}]}]}"#, "input[0].content[0].type"),
        (#"{"model":"m","input":[{"role":"user","content":[{"type":"input_image","file_id":"f"}]}]}"#, "input[0].content[0].image_url"),
        (#"{"model":"m","input":[{"role":"user","content":[{"type":"input_text"}]}]}"#, "input[0].content[0].text"),
        (#"{"model":"m","input":[{"type":"item_reference","id":"msg_1"}]}"#, "input[0].type"),
        (#"{"model":"m","input":[{"role":"user","content":"a"},{"type":"web_search_call","id":"ws"}]}"#, "input[1].type"),
        (#"{"model":"m","input":"x","tools":[{"type":"web_search"}]}"#, "tools[0].type"),
        (#"{"model":"m","input":"x","tools":[{"type":"function"}]}"#, "tools[0].name"),
        (#"{"model":"m","input":"x","tool_choice":{"type":"function","name":"nope"}}"#, "tool_choice.name"),
        (#"{"model":"m","input":"x","tool_choice":"sometimes"}"#, "tool_choice"),
        (#"{"model":"m","input":"x","text":{"format":{"type":"json_schema","name":"a"}}}"#, "text.format.schema"),
        (#"{"model":"m","input":"x","text":{"format":{"type":"yaml"}}}"#, "text.format.type"),
        (#"{"model":"m","input":"x","reasoning":{"effort":"extreme"}}"#, "reasoning.effort"),
        (#"{"model":"m","input":"x","max_output_tokens":0}"#, "max_output_tokens"),
        (#"{"model":"m","input":"x","temperature":1e400}"#, "temperature"),
        (#"{"model":"m","input":"x","background":true}"#, "background"),
        (#"{"model":"m","input":"x","store":"yes"}"#, "store"),
    ])
    func malformedRequestsAre400sNamingTheField(body: String, param: String) {
        do {
            _ = try Self.decode(body)
            Issue.record("\(body) decoded")
        } catch let e as GatewayError {
            #expect(e.status == 400 && e.param == param, "\(body): \(e.param ?? "-") \(e.message)")
            #expect(e.message.contains("`\(param)") || e.message.contains(param), "\(e.message)")
        } catch {
            Issue.record("\(body): \(error)")
        }
    }

    @Test func bodiesThatAreNotJSONObjectsAre400s() {
        for body in ["", "[]", "{", "null"] {
            #expect(throws: GatewayError.self) { _ = try OpenAIResponsesFormat.decodeInboundRequest(Array(body.utf8)) }
        }
    }
}
