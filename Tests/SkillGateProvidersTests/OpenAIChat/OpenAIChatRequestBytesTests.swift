import Testing
import SkillGateCore
@testable import SkillGateProviders

/// `requestBytes` writes, byte for byte, what the tree mapping it replaced serialised to
/// (`OpenAIChatTreeReference`), for requests with every kind of content and option, built in code,
/// decoded from recorded client requests, and decoded from this repository's benchmark request.
@Suite struct OpenAIChatRequestBytesTests {
    typealias Case = NamedCase<ChatRequest>

    static let base = OpenAIChatRequestTests.conversation

    static var cases: [Case] {
        var out = [Case(name: "every kind of content", request: base)]
        var r = base
        r.tools = []
        out.append(Case(name: "no tools (tool_choice and parallel_tool_calls dropped)", request: r))
        r = base
        r.toolChoice = nil; r.parallelToolCalls = false; r.maxTokens = nil; r.temperature = 1; r.topP = nil
        r.stopSequences = ["a", "b\n\"c\""]; r.responseFormat = nil; r.user = nil; r.promptCacheKey = "cache-1"
        out.append(Case(name: "other options", request: r))
        r = base
        r.seed = -9_007_199_254_740_993; r.frequencyPenalty = 0.5; r.presencePenalty = -2; r.logitBias = ["50256": -100, "15": 2.5]; r.topK = 40
        out.append(Case(name: "sampling controls (top_k has no field)", request: r))
        r = base
        r.temperature = .nan; r.topP = 1e-7; r.toolChoice = .required
        out.append(Case(name: "non-finite and tiny numbers", request: r))
        r = ChatRequest(model: "m", messages: [
            Message(role: .assistant, content: [.toolCall(ToolCall(id: "c1", name: "f", arguments: ""))]),
            Message(role: .user, content: []),
            Message(role: .system, content: [.text("one"), .text("two")]),
            Message(role: .user, content: [.toolResult(ToolResult(callId: "c1", name: "f", text: "r")), .text("after"),
                                           .thinking(Thinking(text: "hidden")), .toolResult(ToolResult(callId: "c2", name: "f", text: "r2"))]),
            Message(role: .assistant, content: [.text("Ünïcode \u{0001} \"quoted\" \\ / 東京")]),
        ], tools: [ToolDefinition(name: "f"), ToolDefinition(name: "g", description: "d", parameters: ["type": "object", "a": [1, 2.5, "x", nil, true]], strict: false)],
           toolChoice: ToolChoice.none)
        out.append(Case(name: "edge messages and tools", request: r))
        return out
    }

    @Test(arguments: cases, [false, true])
    func bytesEqualTheTreeMapping(_ c: Case, stream: Bool) {
        for (usage, maxCompletion) in [(true, false), (false, true)] {
            let format = OpenAIChatFormat(includeStreamUsage: usage)
            let reference = OpenAIChatTreeReference(includeStreamUsage: usage)
            let bytes = format.requestBytes(c.request, model: "gpt-test", stream: stream, useMaxCompletionTokens: maxCompletion)
            let expected = reference.requestBody(c.request, model: "gpt-test", stream: stream, useMaxCompletionTokens: maxCompletion).serializedBytes()
            #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    static let recorded = OpenAIChatInboundRequestTests.requestFixtures.map { "openai/\($0)" }

    /// Decoded from recorded requests (schemas kept as text) and from the benchmark's request: the upstream
    /// body is what the tree mapping gives for the same request.
    @Test(arguments: recorded + ["bench"])
    func decodedRequestsGiveTheTreeMappingsBytes(file: String) throws {
        let body = file == "bench" ? try Fixtures.repositoryBytes("Bench/proxy/request.json") : try Fixtures.bytes(file)
        let inbound = try OpenAIChatFormat.decodeInboundRequest(body)
        let bytes = OpenAIChatFormat().requestBytes(inbound.request, model: "up", stream: inbound.stream)
        let expected = OpenAIChatTreeReference().requestBody(inbound.request, model: "up", stream: inbound.stream).serializedBytes()
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(try JSONValue.parse(bytes) == OpenAIChatFormat().requestBody(inbound.request, model: "up", stream: inbound.stream))
    }
}
