import Testing
import SkillGateCore
@testable import SkillGateProviders

/// `requestBodyBytes` writes, byte for byte, what the tree mapping it replaced serialised to
/// (`GeminiRequestTreeReference`): for requests built in code with every part kind, fold and option, for recorded
/// Gemini requests read back, and for recorded and benchmark OpenAI client requests decoded (schemas kept as text).
@Suite struct GeminiRequestBytesTests {
    typealias Case = NamedCase<ChatRequest>

    static let weather = ToolDefinition(
        name: "get_weather", description: "Current weather",
        parameters: ["type": "object", "properties": ["city": ["type": "string", "format": "hostname"],
                                                      "unit": ["type": ["string", "null"], "enum": ["c", "f", nil]]],
                     "required": ["city", "absent"], "additionalProperties": false])

    static var cases: [Case] {
        let conversation = [
            Message(role: .system, text: "Be brief."),
            Message(role: .user, text: "Weather in \"Oslo\"?\n東京 too \\ \u{0001}"),
            Message(role: .assistant, content: [.thinking(Thinking(text: "look it up", signature: "sig")),
                                                .toolCall(ToolCall(id: "call_1", name: "get_weather", arguments: #"{"city": "Oslo"}"#))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "call_1", text: "4 °C"))]),
            Message(role: .system, text: "A second system message."),
        ]
        var out: [Case] = []
        var r = ChatRequest(model: "gemini-2.5-flash", messages: conversation,
                            tools: [weather, ToolDefinition(name: "noop", description: ""), ToolDefinition(name: "bare", parameters: ["type": "OBJECT"])],
                            toolChoice: .auto, maxTokens: 512, temperature: 0.2, topP: 0.9, stopSequences: ["END", "a\n\"b\""], user: "u-1")
        out.append(Case(name: "conversation, tools and options", request: r))
        var sampled = r
        sampled.topK = 40; sampled.seed = -3; sampled.frequencyPenalty = 0.5; sampled.presencePenalty = 1.25; sampled.logitBias = ["50256": -100]
        out.append(Case(name: "topK, seed and the penalties (logit_bias has no field)", request: sampled))
        var alone = ChatRequest(model: "gemini-2.5-flash", messages: conversation)
        alone.seed = 42
        out.append(Case(name: "a seed alone makes a generation config", request: alone))
        r.toolChoice = .named("get_weather"); r.thinking = ThinkingConfig(enabled: true, budgetTokens: 100); r.topP = .nan
        r.responseFormat = ["type": "json_schema", "json_schema": ["name": "w", "schema": weather.parameters]]
        out.append(Case(name: "a named tool, thinking with a budget, a response schema", request: r))
        r.toolChoice = ToolChoice.none; r.thinking = ThinkingConfig(enabled: false); r.responseFormat = ["type": "json_object"]
        r.maxTokens = nil; r.temperature = nil; r.topP = nil; r.stopSequences = []
        out.append(Case(name: "tool choice none, thinking off, JSON output", request: r))
        r.toolChoice = .required; r.thinking = ThinkingConfig(enabled: true); r.responseFormat = ["type": "text"]
        out.append(Case(name: "tool choice required, thinking without a budget", request: r))
        r.tools = []; r.thinking = nil; r.responseFormat = nil
        out.append(Case(name: "no tools (tool choice dropped), no generation config", request: r))
        out.append(Case(name: "every part kind, folds and merged result turns", request: parts(model: "gemini-2.5-pro")))
        out.append(Case(name: "the same on Gemini 3 (sentinels)", request: parts(model: "models/gemini-3-pro-preview")))
        out.append(Case(name: "empty conversation", request: ChatRequest(model: "m", messages: [])))
        return out
    }

    /// Every part kind the writer has, with thinking signatures that fold and that cannot, in turns that merge.
    static func parts(model: String) -> ChatRequest {
        ChatRequest(model: model, messages: [
            Message(role: .user, content: [
                .text("look"), .text(""), .image(.url("https://example.com/a.PNG?size=2")), .image(.url("https://example.com/b")),
                .image(.url("data:image/png;base64,iVBORw0KGgo=")), .image(.url("https://example.com/doc.pdf")),
            ]),
            Message(role: .user, content: []),
            Message(role: .assistant, content: [
                .text("calling"), .thinking(Thinking(text: "", signature: "folded-onto-text")),
                .thinking(Thinking(text: "", signature: "own-part")), .thinking(Thinking(text: "", redactedData: "R")),
                .thinking(Thinking(text: "plain thought")), .thinking(Thinking(text: "")),
                .toolCall(ToolCall(id: "t1", name: "f", arguments: "")),
                .toolCall(ToolCall(id: "", name: "g", arguments: #" {"a": [1, {"b": null}], "u": "é\n"} "#)),
            ]),
            Message(role: .tool, content: [
                .toolResult(ToolResult(callId: "t1", text: #"{"ok": true, "n": 1.50}"#)),
                .toolResult(ToolResult(callId: "t1", text: "[1]")),
                .toolResult(ToolResult(callId: "", name: "g", text: "{not json")),
            ]),
            Message(role: .user, content: [.toolResult(ToolResult(callId: "t1", text: "failed", isError: true))]),
            Message(role: .system, text: "between"),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "t1", content: [.text("a"), .text("b")]))]),
            Message(role: .assistant, content: [
                .toolCall(ToolCall(id: "t2", name: "f", arguments: "{}", signature: "real")),
                .toolCall(ToolCall(id: "t3", name: "f", arguments: "{}")),
            ]),
            Message(role: .user, content: [.text("after results"), .toolResult(ToolResult(callId: "t2", text: "x"))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "t3", text: "y"))]),
            Message(role: .assistant, content: [.text("a"), .thinking(Thinking(text: "t", signature: "s")),
                                                .thinking(Thinking(text: "", signature: "after a thought"))]),
            Message(role: .assistant, content: [.thinking(Thinking(text: "unsigned thought")),
                                                .thinking(Thinking(text: "", signature: "not onto a thought"))]),
        ])
    }

    static func check(_ request: ChatRequest, model: String? = nil) throws {
        let bytes = try GeminiFormat.requestBodyBytes(request, model: model)
        let expected = try GeminiRequestTreeReference.requestBody(request, model: model).serializedBytes()
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(try GeminiFormat.requestBody(request, model: model) == (try JSONValue.parse(expected)))
    }

    @Test(arguments: cases)
    func bytesEqualTheTreeMapping(_ c: Case) throws {
        try Self.check(c.request)
        try Self.check(c.request, model: "gemini-3-flash")
    }

    @Test(arguments: ["test_google_instructions_only_with_tool_calls.0.request.json",
                      "test_google_streaming_tool_call_thought_signature.0.request.json",
                      "test_google_streaming_tool_call_thought_signature.1.request.json"])
    func recordedGeminiRequests(_ file: String) throws {
        try Self.check(try GeminiFormat.decodeRequest(try Fixtures.bytes("gemini/" + file), model: "gemini-3-pro-preview"))
    }

    @Test(arguments: OpenAIChatInboundRequestTests.requestFixtures.map { "openai/\($0)" } + ["bench"])
    func decodedOpenAIRequests(_ file: String) throws {
        let body = file == "bench" ? try Fixtures.repositoryBytes("Bench/proxy/request.json") : try Fixtures.bytes(file)
        let request = try OpenAIChatFormat.decodeInboundRequest(body).request
        try Self.check(request)
        try Self.check(request)   // the second time with the sanitised schemas kept beside them
    }

    /// A request that cannot be expressed is refused with the error the tree mapping gave: the same message and
    /// field, and the first such part in order wins.
    @Test(arguments: [
        ChatRequest(model: "m", messages: [Message(role: .user, text: "hi"),
                                           Message(role: .assistant, content: [.toolCall(ToolCall(id: "t", name: "f", arguments: "[1]"))])]),
        ChatRequest(model: "m", messages: [Message(role: .assistant, content: [.toolCall(ToolCall(id: "t", name: "f", arguments: #"{"a":"#))])]),
        ChatRequest(model: "m", messages: [Message(role: .tool, content: [.toolResult(ToolResult(callId: "nobody", text: "r"))])]),
        ChatRequest(model: "m", messages: [Message(role: .tool, content: [.toolResult(ToolResult(callId: "later", text: "r"))]),
                                           Message(role: .assistant, content: [.toolCall(ToolCall(id: "later", name: "f", arguments: "{}"))])]),
        ChatRequest(model: "m", messages: [Message(role: .system, content: [.toolCall(ToolCall(id: "s", name: "f", arguments: "{}"))]),
                                           Message(role: .tool, content: [.toolResult(ToolResult(callId: "s", text: "r"))])]),
        ChatRequest(model: "m", messages: [Message(role: .user, text: "hi")], tools: [weather], toolChoice: .named("other")),
        ChatRequest(model: "m", messages: [Message(role: .user, text: "hi")], responseFormat: ["type": "xml"]),
        ChatRequest(model: "m", messages: [Message(role: .assistant, content: [.toolCall(ToolCall(id: "t", name: "f", arguments: "1"))])],
                    tools: [weather], toolChoice: .named("other"), responseFormat: ["type": "xml"]),
    ])
    func refusedLikeTheTreeMapping(_ request: ChatRequest) {
        var refused: GatewayError?
        do { _ = try GeminiFormat.requestBodyBytes(request) } catch { refused = error as? GatewayError }
        var expected: GatewayError?
        do { _ = try GeminiRequestTreeReference.requestBody(request) } catch { expected = error as? GatewayError }
        #expect(refused != nil && expected != nil)
        #expect(refused?.message == expected?.message)
        #expect(refused?.param == expected?.param)
    }

    /// A tool list's sanitised schemas are made once and kept with the schemas: a second body from the same tools
    /// (as the tool-list cache hands them out) does not sanitise again, and a copy of a tool shares what was kept.
    @Test func sanitisedSchemasAreKeptWithTheSchema() throws {
        let request = try OpenAIChatFormat.decodeInboundRequest(try Fixtures.repositoryBytes("Bench/proxy/request.json")).request
        let tool = try #require(request.tools.first)
        var made = 0
        let first = tool.schema.derived(.geminiParameters) { _ in made += 1; return Array("{}".utf8) }
        #expect(made == 1)
        #expect(first == GeminiFormat.declaredParameters(tool.schema))   // already kept, not the sanitiser's text
        let copy = tool
        _ = copy.schema.derived(.geminiParameters) { _ in made += 1; return [] }
        #expect(made == 1)
        let other = try OpenAIChatFormat.decodeInboundRequest(try Fixtures.repositoryBytes("Bench/proxy/request.json")).request
        #expect(GeminiFormat.declaredParameters(other.tools[0].schema)
                == GeminiSchemaSanitizer.sanitize(other.tools[0].parameters).serializedBytes())
    }
}
