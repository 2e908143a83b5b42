import Testing
import SkillGateCore
@testable import SkillGateProviders

/// A Messages API body's `tools` array taken from the tool-list cache: the same request (or error) as a decode without
/// the cache, on the miss and on the hit; only lists from requests that decoded are kept.
@Suite struct AnthropicToolListCacheTests {
    static func body(tools: String, before: String = "", after: String = "") -> [UInt8] {
        Array(#"{"model":"m","max_tokens":64,\#(before)"messages":[{"role":"user","content":"hi"}],"tools":\#(tools)\#(after)}"#.utf8)
    }

    static let tools = """
        [ {"name": "weather", "description": "Weather for a city.", "input_schema": {"type": "object",
           "properties": {"city": {"type": "string"}}, "required": ["city"]}},
          {"name":"time","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral","ttl":"1h"}} ]
        """

    /// Bodies that decode: tools with schemas and cache control, escapes, a stream.
    static let accepted: [[UInt8]] = [
        body(tools: tools),
        body(tools: #"[{"name":"caf\u00e9","input_schema":{"type":"object","properties":{"q":{"type":"string","description":"say \"x\""}}}}]"#),
        body(tools: tools, before: #""stream":true,"system":[{"type":"text","text":"be brief"}],"#),
        body(tools: "[]"),
    ]

    @Test(arguments: accepted)
    func aHitDecodesAsAFreshDecodeDoes(body: [UInt8]) throws {
        let cache = ToolListCache()
        let fresh = try AnthropicMessagesFormat.decodeInbound(body)
        let miss = try AnthropicMessagesFormat.decodeInbound(body, toolCache: cache, scope: "token-1")
        let hit = try AnthropicMessagesFormat.decodeInbound(body, toolCache: cache, scope: "token-1")
        #expect(miss.request == fresh.request && miss.stream == fresh.stream)
        #expect(hit.request == fresh.request && hit.stream == fresh.stream)
        #expect(cache.statistics.entries == 1)
        #expect(cache.statistics.hits == 1)
    }

    /// Tools decoded through the cache keep their schemas as compact text (what their trees serialise to, escapes
    /// included), on the miss and on the hit, so a cached list's schemas are copied into every upstream body instead of
    /// being written from trees (decision 0068); without the cache they stay trees.
    @Test(arguments: accepted)
    func schemasAreKeptAsTheirCompactText(body: [UInt8]) throws {
        let cache = ToolListCache()
        for _ in 0..<2 {
            let request = try AnthropicMessagesFormat.decodeInbound(body, toolCache: cache, scope: "token-1").request
            for tool in request.tools {
                #expect(tool.schema.isText)
                #expect(tool.schema.compactText == tool.parameters.serializedBytes())
            }
        }
        if let first = try AnthropicMessagesFormat.decodeInboundRequest(body).tools.first {
            #expect(!first.schema.isText)
            #expect(first.parameters == (try JSONValue.parse(body))["tools"]?.arrayValue?.first?["input_schema"])
        }
    }

    /// The same tools after an error elsewhere (a second `tools` member among them), or with an error of their own: the
    /// same error with and without the cache, and nothing kept for a request that did not decode.
    static let refused: [[UInt8]] = [
        body(tools: tools, before: #""temperature":"hot","#),
        body(tools: tools, after: #","tools":[{"name":"ignored","input_schema":{}}]"#),
        body(tools: tools, after: #","tools":\#(tools)"#),
        Array(#"{"model":"m","messages":[],"max_tokens":5,"tools":\#(tools)}"#.utf8),
        body(tools: #"[{"name":"a","input_schema":"not a schema"}]"#),
        body(tools: #"[{"type":"web_search_20250305","name":"web_search"}]"#),
        body(tools: #"{"name":"not a list"}"#),
        body(tools: #"[{"name":"a","input_schema":{"type":}}]"#),
        Array(#"{"model":"m","max_tokens":5,"tools":\#(tools)"#.utf8),
    ]

    @Test(arguments: refused)
    func errorsAreTheSameAndNothingIsKept(body: [UInt8]) {
        let cache = ToolListCache()
        func message(_ run: () throws -> Void) -> String? {
            do { try run(); return nil } catch let error as GatewayError { return error.message } catch { return "\(error)" }
        }
        let fresh = message { _ = try AnthropicMessagesFormat.decodeInbound(body) }
        #expect(fresh != nil)
        for _ in 0..<2 {
            #expect(message { _ = try AnthropicMessagesFormat.decodeInbound(body, toolCache: cache, scope: "token-1") } == fresh)
        }
        #expect(cache.statistics.entries == 0)
    }

    /// A list kept after a good request is taken for a later request that fails elsewhere: the later error is the
    /// one a fresh decode gives.
    @Test func aKeptListDoesNotHideAnotherFieldsError() throws {
        let cache = ToolListCache()
        _ = try AnthropicMessagesFormat.decodeInbound(Self.body(tools: Self.tools), toolCache: cache, scope: "t")
        let bad = Self.body(tools: Self.tools, before: #""temperature":"warm","#)
        #expect(throws: GatewayError.self) { try AnthropicMessagesFormat.decodeInbound(bad, toolCache: cache, scope: "t") }
        let viaCache = (try? AnthropicMessagesFormat.decodeInbound(bad, toolCache: cache, scope: "t")) == nil
        #expect(viaCache)
        #expect(cache.statistics.hits >= 1)
    }

    /// Why the gateway scopes each surface's lists apart: the same bytes are a valid tool list in both shapes and name
    /// other tools in each.
    @Test func theSameBytesAreOtherToolsInTheOpenAIShape() throws {
        let shared = #"[{"function":{"name":"openai_name"},"name":"anthropic_name","input_schema":{"type":"object"}}]"#
        let anthropic = try AnthropicMessagesFormat.decodeInbound(Self.body(tools: shared)).request.tools.map(\.name)
        let openAIBody = Array(#"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":\#(shared)}"#.utf8)
        let openAI = try OpenAIChatFormat.decodeInboundRequest(openAIBody).request.tools.map(\.name)
        #expect(anthropic == ["anthropic_name"])
        #expect(openAI == ["openai_name"])
    }
}
