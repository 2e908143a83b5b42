import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Prompt-cache breakpoints (`cache_control`): kept from the Anthropic surface through the neutral model to an
/// Anthropic-format provider, and placed on the stable prefix when the gateway is asked to.
@Suite struct AnthropicCacheControlTests {
    static let inbound = #"""
    {"model":"claude-test","max_tokens":100,
     "system":[{"type":"text","text":"You are terse."},{"type":"text","text":"Long policy text.","cache_control":{"type":"ephemeral","ttl":"1h"}}],
     "tools":[{"name":"a","input_schema":{"type":"object"}},{"name":"b","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral"}}],
     "messages":[
       {"role":"user","content":[{"type":"text","text":"first","cache_control":{"type":"ephemeral"}},{"type":"text","text":"second"}]},
       {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"a","input":{},"cache_control":{"type":"ephemeral"}}]},
       {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"42","cache_control":{"type":"ephemeral"}},{"type":"text","text":"and now?"}]}]}
    """#

    @Test func breakpointsTheClientSentReachTheProviderWhereTheyWere() throws {
        let request = try AnthropicMessagesFormat.decodeInboundRequest(Array(Self.inbound.utf8))
        #expect(request.hasCacheBreakpoints)
        #expect(request.tools.map(\.cacheControl) == [nil, CacheControl()])
        let body = try AnthropicTestSupport.wire(request)
        let system = try #require(body["system"]?.arrayValue)
        #expect(system.count == 2)
        #expect(system[0]["cache_control"] == nil)
        #expect(system[1]["cache_control"] == ["type": "ephemeral", "ttl": "1h"])
        let tools = try #require(body["tools"]?.arrayValue)
        #expect(tools[0]["cache_control"] == nil && tools[1]["cache_control"] == ["type": "ephemeral"])
        let messages = try #require(body["messages"]?.arrayValue)
        let first = try #require(messages[0]["content"]?.arrayValue)
        #expect(first[0]["cache_control"] == ["type": "ephemeral"] && first[1]["cache_control"] == nil)
        #expect(messages[1]["content"]?.arrayValue?.first?["cache_control"] == ["type": "ephemeral"], "on the tool_use block")
        let last = try #require(messages[2]["content"]?.arrayValue)
        #expect(last[0]["type"] == "tool_result" && last[0]["cache_control"] == ["type": "ephemeral"])
        #expect(last[1]["cache_control"] == nil)
    }

    @Test func theGatewayPlacesBreakpointsOnTheToolsAndSystemWhenAsked() throws {
        var request = ChatRequest(model: "m", messages: [Message(role: .system, text: "Be brief."), Message(role: .user, text: "hi")],
                                  tools: [ToolDefinition(name: "a"), ToolDefinition(name: "b")])
        let plain = try AnthropicTestSupport.wire(request)
        #expect(plain["system"] == "Be brief.", "without placement the system prompt stays a string")
        #expect(!plain.serialized().contains("cache_control"))

        request.cachePlacement = .prefix
        let placed = try AnthropicTestSupport.wire(request)
        #expect(placed["system"] == [["type": "text", "text": "Be brief.", "cache_control": ["type": "ephemeral"]]])
        let tools = try #require(placed["tools"]?.arrayValue)
        #expect(tools[0]["cache_control"] == nil)
        #expect(tools[1]["cache_control"] == ["type": "ephemeral"])
        #expect(placed["messages"]?.arrayValue?.first?["content"]?.serialized().contains("cache_control") == false, "the conversation itself is not marked")
    }

    @Test func theClientsOwnBreakpointsWinOverPlacement() throws {
        var request = try AnthropicMessagesFormat.decodeInboundRequest(Array(Self.inbound.utf8))
        request.cachePlacement = .prefix
        let body = try AnthropicTestSupport.wire(request)
        #expect(body["tools"]?.arrayValue?.last?["cache_control"] == ["type": "ephemeral"])
        #expect(body["system"]?.arrayValue?.first?["cache_control"] == nil, "no breakpoint added to the first system block")
        #expect(body.serialized().components(separatedBy: "cache_control").count - 1 == 5, "exactly the client's five")
    }

    @Test(arguments: [
        (#"{"type":"persistent"}"#, "system[0].cache_control.type"),
        (#"{"type":"ephemeral","ttl":"2h"}"#, "system[0].cache_control.ttl"),
        (#""ephemeral""#, "system[0].cache_control"),
    ])
    func aMalformedCacheControlIsA400NamingTheField(control: String, param: String) {
        let body = #"{"model":"m","max_tokens":10,"system":[{"type":"text","text":"x","cache_control":\#(control)}],"messages":[{"role":"user","content":"hi"}]}"#
        let error = #expect(throws: GatewayError.self) { try AnthropicMessagesFormat.decodeInboundRequest(Array(body.utf8)) }
        #expect(error?.status == 400)
        #expect(error?.param == param, "\(String(describing: error?.message))")
    }

    @Test func promptCacheKeyPassesToOpenAIFormatProviders() throws {
        let body = #"{"model":"m","messages":[{"role":"user","content":"hi"}],"prompt_cache_key":"agent-v3"}"#
        let request = try OpenAIChatFormat.decodeInboundRequest(Array(body.utf8)).request
        #expect(request.promptCacheKey == "agent-v3")
        let wire = OpenAIChatFormat().requestBody(request, model: "gpt-test", stream: false)
        #expect(wire["prompt_cache_key"] == "agent-v3")
        let anthropic = try AnthropicTestSupport.wire(request)
        #expect(anthropic["prompt_cache_key"] == nil, "Anthropic has no such field")
    }
}
