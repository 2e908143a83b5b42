import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct OpenAIChatInboundRequestTests {
    static let requestFixtures = [
        "test_run_stream_sync_streams_real_model.0.request.json",
        "test_run_stream_sync_streams_real_model.1.request.json",
        "test_temporal_agent_with_hitl_tool.0.request.json",
        "test_tool_choice_matrix_auto-openai.1.request.json",
    ]

    @Test(arguments: requestFixtures)
    func recordedRequestsDecodeAndReEncodeToEquivalentJSON(file: String) throws {
        let bytes = try Fixtures.bytes("openai/\(file)")
        let original = try JSONValue.parse(bytes)
        let inbound = try OpenAIChatFormat.decodeInboundRequest(bytes)
        let reencoded = OpenAIChatFormat().requestBody(inbound.request, model: inbound.request.model, stream: inbound.stream)
        #expect(OpenAIChatTestSupport.canonical(reencoded) == OpenAIChatTestSupport.canonical(original))
    }

    /// `safety_identifier`, OpenAI's successor to `user`, names the end user as `user` does (the response cache keeps
    /// their answers apart by it) and is sent upstream as `user`; given both, it wins, as on the Responses surface.
    @Test(arguments: [
        (#","safety_identifier":"alice""#, "alice"),
        (#","user":"bob""#, "bob"),
        (#","user":"bob","safety_identifier":"alice""#, "alice"),
        ("", nil),
    ] as [(String, String?)])
    func theSafetyIdentifierNamesTheEndUser(members: String, user: String?) throws {
        let body = Array(#"{"model":"m","messages":[{"role":"user","content":"hi"}]\#(members)}"#.utf8)
        let inbound = try OpenAIChatFormat.decodeInboundRequest(body)
        #expect(inbound.request.user == user)
        let upstream = OpenAIChatFormat().requestBody(inbound.request, model: "m", stream: false)
        #expect(upstream["user"]?.stringValue == user)
        #expect(upstream["safety_identifier"] == nil)
    }

    @Test func aSafetyIdentifierThatIsNoStringIsA400() {
        #expect(throws: GatewayError.self) {
            try OpenAIChatFormat.decodeInboundRequest(Array(#"{"model":"m","messages":[{"role":"user","content":"hi"}],"safety_identifier":7}"#.utf8))
        }
    }

    @Test func toolResultsGetTheirToolName() throws {
        let inbound = try OpenAIChatFormat.decodeInboundRequest(
            try Fixtures.bytes("openai/test_run_stream_sync_streams_real_model.1.request.json"))
        #expect(inbound.stream && inbound.includeUsage)
        let result = try #require(inbound.request.messages.last?.toolResults.first)
        #expect(result == ToolResult(callId: "call_ZR5UUuTt3pf61kjwAJIYdVMj", name: "get_capital", text: "London"))
    }

    /// A tool declared without `parameters` (or with `null`) gets the empty object schema, and one with a schema keeps
    /// it, whether it was captured as text or not; the tool is the one `ToolDefinition` builds from the same fields.
    @Test(arguments: [
        (#"{"type":"function","function":{"name":"ping"}}"#, ToolDefinition(name: "ping")),
        (#"{"type":"function","function":{"name":"ping","description":"Check","parameters":null,"strict":true}}"#,
         ToolDefinition(name: "ping", description: "Check", strict: true)),
        (#"{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}}"#,
         ToolDefinition(name: "f", parameters: ["type": "object", "properties": ["q": ["type": "string"]]])),
        (#"{"type":"function","function":{"name":"f","parameters":{"type":"object","description":"a \"quoted\" schema"}}}"#,
         ToolDefinition(name: "f", parameters: ["type": "object", "description": "a \"quoted\" schema"])),
    ])
    func toolSchemasDecode(tool: String, expected: ToolDefinition) throws {
        let body = #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":["# + tool + "]}"
        let decoded = try OpenAIChatFormat.decodeInboundRequest(Array(body.utf8)).request.tools
        #expect(decoded == [expected])
        #expect(decoded.first?.parameters == expected.parameters)
    }

    @Test func developerRoleAndScalarFieldsDecode() throws {
        let body = #"{"model":"m","messages":[{"role":"developer","content":[{"type":"text","text":"Be brief."}]},{"role":"user","content":"hi"}],"max_tokens":512,"temperature":0.2,"stop":"END","user":"u"}"#
        let r = try OpenAIChatFormat.decodeInboundRequest(Array(body.utf8)).request
        #expect(r.messages.first == Message(role: .system, text: "Be brief."))
        #expect(r.maxTokens == 512)
        #expect(r.temperature == 0.2)
        #expect(r.stopSequences == ["END"])
    }

    /// A bad request and the field its 400 must name.
    struct BadRequest: Sendable, CustomTestStringConvertible {
        var body: String
        var param: String?
        var mentions: String
        var testDescription: String { param ?? "body" }
    }

    static let badRequests: [BadRequest] = [
        BadRequest(body: #"{"model":"m"}"#, param: "messages", mentions: "array"),
        BadRequest(body: #"{"model":"m","messages":[]}"#, param: "messages", mentions: "empty"),
        BadRequest(body: #"{"messages":[{"role":"user","content":"hi"}]}"#, param: "model", mentions: "missing"),
        BadRequest(body: #"{"model":"m","messages":"hi"}"#, param: "messages", mentions: "a string"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"a"},{"role":"user","content":"b"},{"role":"user","content":42}]}"#,
                   param: "messages[2].content", mentions: "a number"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"wizard","content":"hi"}]}"#, param: "messages[0].role", mentions: "one of system"),
        BadRequest(body: #"{"model":"m","messages":[{"content":"hi"}]}"#, param: "messages[0].role", mentions: "missing"),
        BadRequest(body: #"{"model":"m","n":3,"messages":[{"role":"user","content":"hi"}]}"#, param: "n", mentions: "one choice"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"tool","content":"x"}]}"#, param: "messages[0].tool_call_id", mentions: "a string"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{}}]}]}"#,
                   param: "messages[0].content[0].type", mentions: "image_url"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"description":"x"}}]}"#,
                   param: "tools[0].function.name", mentions: "missing"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[],"tool_choice":{"type":"function","function":{"name":"nope"}}}"#,
                   param: "tool_choice.function.name", mentions: "not in `tools`"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":"many"}"#, param: "max_tokens", mentions: "positive integer"),
        // A number that is not a positive integer is named, not called "a number".
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":-1}"#, param: "max_tokens", mentions: "but it is -1"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":1e999}"#, param: "max_completion_tokens", mentions: "but it is 1e999"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":"yes"}"#, param: "stream", mentions: "true or false"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"f","arguments":"{}"}}]}]}"#,
                   param: "messages[0].tool_calls[0].id", mentions: "a string"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"functions":[]}"#, param: "functions", mentions: "tools"),
        // Every path a field's name is built on (built only when the request is refused).
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"a"},{"role":"function","content":"x"}]}"#,
                   param: "messages[1].role", mentions: "legacy functions API"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"system","content":[{"type":"text","text":"a"},{"type":"image_url"}]}]}"#,
                   param: "messages[0].content[1].type", mentions: "only \"text\" parts"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"developer","content":[{"type":"text"}]}]}"#,
                   param: "messages[0].content[0].text", mentions: "missing"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"image"}]}]}"#,
                   param: "messages[1].content[0].type", mentions: "\"text\" or \"refusal\""),
        BadRequest(body: #"{"model":"m","messages":[{"role":"assistant","content":[{"type":"refusal"}]}]}"#,
                   param: "messages[0].content[0].refusal", mentions: "missing"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}},{"id":"d"}]}]}"#,
                   param: "messages[0].tool_calls[1].function", mentions: "name and arguments"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":7}}]}]}"#,
                   param: "messages[0].tool_calls[0].function.arguments", mentions: "a JSON string"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"arguments":"{}"}}]}]}"#,
                   param: "messages[0].tool_calls[0].function.name", mentions: "missing"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":3}]}]}"#,
                   param: "messages[0].content[0].image_url", mentions: "{\"url\""),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{}}]}]}"#,
                   param: "messages[0].content[0].image_url.url", mentions: "missing"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a"}},{"type":"retrieval"}]}"#,
                   param: "tools[1].type", mentions: "only \"function\""),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a","parameters":[]}}]}"#,
                   param: "tools[0].function.parameters", mentions: "JSON Schema object"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a","strict":"yes"}}]}"#,
                   param: "tools[0].function.strict", mentions: "true or false"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":""}}]}"#,
                   param: "tools[0].function.name", mentions: "empty"),
        BadRequest(body: #"{"model":"m","messages":[{"role":"user","content":"hi"}"#, param: nil, mentions: "not valid JSON"),
        BadRequest(body: #"[1,2]"#, param: nil, mentions: "JSON object"),
    ]

    @Test(arguments: badRequests)
    func invalidRequestsNameTheField(_ bad: BadRequest) throws {
        let e = try #require(OpenAIChatTestSupport.gatewayError { _ = try OpenAIChatFormat.decodeInboundRequest(Array(bad.body.utf8)) })
        #expect(e.kind == .invalidRequest)
        #expect(e.status == 400)
        #expect(e.domain == .caller)
        #expect(e.param == bad.param)
        if let param = bad.param { #expect(e.message.contains(param)) }
        #expect(e.message.contains(bad.mentions), "\(e.message)")
    }
}
