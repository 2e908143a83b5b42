import Testing
import SkillGateCore
@testable import SkillGateProviders

/// `wireBodyBytes` writes, byte for byte, what the tree mapping it replaced serialised to
/// (`AnthropicRequestTreeReference`): for requests built in code with every option, decoded from recorded Anthropic and
/// OpenAI client requests (schemas kept as text), and decoded from this repository's benchmark request.
@Suite struct AnthropicRequestBytesTests {
    typealias Case = NamedCase<ChatRequest>

    static let weather = AnthropicRequestTests.weather

    static var cases: [Case] {
        let conversation = [
            Message(role: .system, text: "Be brief."),
            Message(role: .user, text: "Weather in \"Oslo\"?\n東京 too \\ \u{0001}"),
            Message(role: .assistant, content: [.thinking(Thinking(text: "look it up", signature: "sig")),
                                                .toolCall(ToolCall(id: "toolu_1", name: "get_weather", arguments: #"{"city": "Oslo"}"#))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "toolu_1", text: "4 °C"))]),
        ]
        var out: [Case] = []
        var r = ChatRequest(model: "m", messages: conversation, tools: [weather, ToolDefinition(name: "noop", description: "")],
                            toolChoice: .auto, maxTokens: 512, temperature: 0.2, topP: 0.9, stopSequences: ["END", "a\n\"b\""], user: "u-1")
        out.append(Case(name: "conversation, tools and options", request: r))
        var sampled = r
        sampled.topK = 40; sampled.seed = 7; sampled.frequencyPenalty = 0.5; sampled.presencePenalty = -0.5; sampled.logitBias = ["50256": -100]
        out.append(Case(name: "top_k (the other sampling controls have no field)", request: sampled))
        r.cachePlacement = .prefix
        out.append(Case(name: "placed on the prefix", request: r))
        r.tools = [weather, ToolDefinition(name: "cached", parameters: ["type": "object"], cacheControl: CacheControl(ttl: "1h"))]
        out.append(Case(name: "a tool's own breakpoint", request: r))
        r.cachePlacement = .off
        r.thinking = ThinkingConfig(enabled: true, budgetTokens: 100)
        r.toolChoice = .named("get_weather"); r.parallelToolCalls = false; r.user = ""; r.temperature = nil; r.topP = .nan
        out.append(Case(name: "thinking, a named tool, no parallel calls", request: r))
        r.thinking = ThinkingConfig(enabled: false)
        r.toolChoice = ToolChoice.none; r.parallelToolCalls = nil; r.stopSequences = []; r.maxTokens = nil
        out.append(Case(name: "thinking off, tool choice none, defaults", request: r))
        r.tools = []; r.toolChoice = .required
        out.append(Case(name: "no tools (tool choice dropped)", request: r))
        out.append(Case(name: "images, tool results with parts, merged turns and breakpoints on every kind of block", request: blocks))
        return out
    }

    /// Every block kind the writer has, with a breakpoint on each, in turns that merge and reorder.
    static var blocks: ChatRequest {
        var user = Message(role: .user, content: [
            .text("look"), .text(""), .image(.url("https://example.com/a.png")),
            .image(.url("data:image/png;base64,iVBORw0KGgo=")),
        ])
        user.cacheBreakpoints = [0: CacheControl(), 2: CacheControl(ttl: "1h"), 3: CacheControl()]
        var assistant = Message(role: .assistant, content: [
            .thinking(Thinking(text: "hm", signature: "s")), .thinking(Thinking(text: "", redactedData: "R")),
            .text("calling"), .toolCall(ToolCall(id: "t1", name: "f", arguments: "")),
            .toolCall(ToolCall(id: "t2", name: "g", arguments: #" {"a": [1, {"b": null}]} "#)),
        ])
        assistant.cacheBreakpoints = [0: CacheControl(), 1: CacheControl(), 4: CacheControl()]
        var results = Message(role: .tool, content: [
            .toolResult(ToolResult(callId: "t1", content: [.text("one")])),
            .toolResult(ToolResult(callId: "t2", content: [.text("a"), .text(""), .image(.url("https://example.com/b.png"))], isError: true)),
            .toolResult(ToolResult(callId: "t3", content: [.text("")])),
        ])
        results.cacheBreakpoints = [1: CacheControl()]
        return ChatRequest(model: "m", messages: [
            Message(role: .system, content: [.text("one"), .text("two")]),
            user,
            Message(role: .user, content: []),
            Message(role: .assistant, content: [.thinking(Thinking(text: "only thinking, kept"))]),
            assistant,
            Message(role: .user, content: [.text("before the results"), .thinking(Thinking(text: "dropped in a user turn"))]),
            results,
            Message(role: .user, content: [.toolResult(ToolResult(callId: "t4", content: [.image(.url("https://example.com/c.png"))]))]),
        ])
    }

    static func check(_ request: ChatRequest) throws {
        for stream in [false, true] {
            let bytes = try AnthropicTestSupport.format.wireBodyBytes(for: request, model: "claude-up", stream: stream)
            let expected = try AnthropicRequestTreeReference.wireBody(for: request, model: "claude-up", stream: stream).serializedBytes()
            #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            #expect(try AnthropicTestSupport.format.wireBody(for: request, model: "claude-up", stream: stream) == (try JSONValue.parse(expected)))
        }
    }

    @Test(arguments: cases)
    func bytesEqualTheTreeMapping(_ c: Case) throws { try Self.check(c.request) }

    @Test(arguments: ["test_multiple_parallel_tool_calls.0.request.json", "test_multiple_parallel_tool_calls.1.request.json",
                      "test_anthropic_model_thinking_part_stream.0.request.json"])
    func recordedAnthropicRequests(_ file: String) throws {
        let inbound = try AnthropicMessagesFormat.decodeInbound(try Fixtures.bytes("anthropic/" + file), toolCache: ToolListCache(), scope: "t")
        try Self.check(inbound.request)
    }

    @Test(arguments: OpenAIChatInboundRequestTests.requestFixtures.map { "openai/\($0)" } + ["bench"])
    func decodedOpenAIRequests(_ file: String) throws {
        let body = file == "bench" ? try Fixtures.repositoryBytes("Bench/proxy/request.json") : try Fixtures.bytes(file)
        try Self.check(try OpenAIChatFormat.decodeInboundRequest(body).request)
    }

    /// A request that cannot be expressed is refused with the error the tree mapping gave: the same message and
    /// field, and the first such block in order wins.
    @Test(arguments: [
        [Message(role: .user, text: "hi"), Message(role: .assistant, content: [.toolCall(ToolCall(id: "t", name: "f", arguments: "[1]"))])],
        [Message(role: .assistant, content: [.toolCall(ToolCall(id: "t", name: "f", arguments: #"{"a":"#))])],
        [Message(role: .user, content: [.text("x"), .toolCall(ToolCall(id: "t", name: "f", arguments: "{}"))])],
        [Message(role: .assistant, content: [.toolResult(ToolResult(callId: "t", text: "r"))])],
        [Message(role: .tool, content: [.toolResult(ToolResult(callId: "t", content: [.text("a"), .toolCall(ToolCall(id: "u", name: "g", arguments: "{}"))]))])],
        [Message(role: .tool, content: [.toolResult(ToolResult(callId: "t", content: [.thinking(Thinking(text: "x"))]))]),
         Message(role: .user, content: [.toolCall(ToolCall(id: "t", name: "f", arguments: "{}"))])],
    ])
    func refusedLikeTheTreeMapping(_ messages: [Message]) {
        let request = ChatRequest(model: "m", messages: messages)
        var refused: GatewayError?
        do { _ = try AnthropicTestSupport.format.wireBodyBytes(for: request, model: "m", stream: false) } catch { refused = error as? GatewayError }
        var expected: GatewayError?
        do { _ = try AnthropicRequestTreeReference.wireBody(for: request, model: "m", stream: false) } catch { expected = error as? GatewayError }
        #expect(refused != nil && expected != nil)
        #expect(refused?.message == expected?.message)
        #expect(refused?.param == expected?.param)
    }
}
