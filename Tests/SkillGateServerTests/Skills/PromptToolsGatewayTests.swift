import Foundation
import Testing
import SkillGateCore
@testable import SkillGateServer

/// A model whose catalog entry says `"tools": "prompt"` gets the tools in its system prompt, and the
/// OpenAI-surface client still sees ordinary `tool_calls`.
@Suite struct PromptToolsGatewayTests {
    typealias H = SkillsGatewayHarness
    static let answer = ScriptedAnswer.text(#"Let me check. <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>"#)

    @Test func nonStreamingClientSeesToolCalls() async throws {
        let h = try H(config: #""scenarios":{"chat":{}}"#, script: ["light-prompt": Self.answer])
        let r = try await h.chat(H.request("weather in Paris?", tools: [H.weather], model: "up/light-prompt"))
        await h.stop()
        #expect(r.status == 200)
        let body = try JSONValue.parse(r.body)
        let choice = try #require(body["choices"]?.arrayValue?.first)
        #expect(choice["finish_reason"] == "tool_calls")
        let call = try #require(choice["message"]?["tool_calls"]?.arrayValue?.first)
        #expect(call["type"] == "function")
        #expect(call["function"]?["name"] == "get_weather")
        #expect(try JSONValue.parse(call["function"]?["arguments"]?.stringValue ?? "") == ["city": "Paris"])
        #expect(choice["message"]?["content"]?.stringValue?.contains("<tool_call>") != true)

        // Upstream: no native tools, the tool rendered into the system prompt.
        let sent = try #require(h.upstream.requests.first)
        #expect(sent["tools"] == nil)
        let system = sent["messages"]?.arrayValue?.first { $0["role"] == "system" }
        #expect(system?["content"]?.stringValue?.contains("get_weather") == true)
    }

    @Test func streamingClientSeesToolCallDeltas() async throws {
        let h = try H(config: #""scenarios":{"chat":{}}"#, script: ["light-prompt": Self.answer])
        let r = try await h.chat(H.request("weather in Paris?", tools: [H.weather], model: "up/light-prompt", stream: true))
        await h.stop()
        #expect(r.status == 200)
        let chunks = r.body.split(separator: "\n").filter { $0.hasPrefix("data: {") }.compactMap { try? JSONValue.parse(String($0.dropFirst(6))) }
        let deltas = chunks.compactMap { $0["choices"]?.arrayValue?.first }
        let name = deltas.compactMap { $0["delta"]?["tool_calls"]?.arrayValue?.first?["function"]?["name"]?.stringValue }.first
        let arguments = deltas.compactMap { $0["delta"]?["tool_calls"]?.arrayValue?.first?["function"]?["arguments"]?.stringValue }.joined()
        #expect(name == "get_weather")
        #expect(try JSONValue.parse(arguments) == ["city": "Paris"])
        #expect(deltas.contains { $0["finish_reason"] == "tool_calls" })
        #expect(!r.body.contains("<tool_call>"))
        #expect(r.body.hasSuffix("data: [DONE]\n\n"))
    }
}
