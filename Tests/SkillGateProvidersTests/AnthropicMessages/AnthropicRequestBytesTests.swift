import Testing
import SkillGateCore
@testable import SkillGateProviders

/// `wireBodyBytes` writes, byte for byte, what the tree mapping it replaced serialised to
/// (`AnthropicRequestTreeReference`): for requests built in code with every option, decoded from recorded Anthropic and
/// OpenAI client requests (schemas kept as text), and decoded from this repository's benchmark request.
@Suite struct AnthropicRequestBytesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let request: ChatRequest
        var testDescription: String { name }
    }

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
        return out
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

    /// A call whose arguments are not an object is still refused, naming the call, before anything is written.
    @Test func argumentsThatAreNotAnObjectAreStillRefused() {
        let request = ChatRequest(model: "m", messages: [Message(role: .user, text: "hi"),
                                                         Message(role: .assistant, content: [.toolCall(ToolCall(id: "t", name: "f", arguments: "[1]"))])])
        #expect(throws: GatewayError.self) { try AnthropicTestSupport.format.wireBodyBytes(for: request, model: "m", stream: false) }
    }
}
