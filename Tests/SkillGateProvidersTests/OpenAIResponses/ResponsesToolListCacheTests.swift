import Testing
import SkillGateCore
@testable import SkillGateProviders

/// A Responses body's `tools` array taken from the tool-list cache (decision 0069): the same request, echo and stream
/// flag (or the same error) as a decode without the cache, on the miss and on the hit; only lists from requests that
/// decoded are kept, with their schemas as text; the echo repeats the client's bytes either way.
@Suite struct ResponsesToolListCacheTests {
    static func body(tools: String, before: String = "", after: String = "") -> [UInt8] {
        Array(#"{"model":"m",\#(before)"input":"hi","tools":\#(tools)\#(after)}"#.utf8)
    }

    static let tools = """
        [ {"type": "function", "name": "weather", "description": "Weather for a city.", "parameters": {"type": "object",
           "properties": {"city": {"type": "string", "description": "say \\"Oslo\\""}}, "required": ["city"]}},
          {"type":"function","name":"time","strict":true} ]
        """

    /// Bodies that decode: tools with and without schemas, escapes, a named tool choice, a stream.
    static let accepted: [[UInt8]] = [
        body(tools: tools),
        body(tools: #"[{"type":"function","name":"caf\u00e9","parameters":{"type":"object"}}]"#),
        body(tools: tools, before: #""stream":true,"instructions":"be brief","tool_choice":{"type":"function","name":"time"},"#),
        body(tools: "[]"),
        body(tools: "null"),
    ]

    @Test(arguments: accepted)
    func aHitDecodesAsAFreshDecodeDoes(body: [UInt8]) throws {
        let cache = ToolListCache()
        let fresh = try OpenAIResponsesFormat.decodeInboundRequest(body)
        for round in 0..<2 {
            let viaCache = try OpenAIResponsesFormat.decodeInboundRequest(body, toolCache: cache, scope: "token-1")
            #expect(viaCache == fresh, "round \(round)")
            #expect(viaCache.echo.tools == fresh.echo.tools)
            #expect(viaCache.echo.toolsBytes == fresh.echo.toolsBytes)
            let object = { (r: ResponsesInboundRequest) in ResponsesObject(id: "resp_1", createdAt: 1, model: "m", echo: r.echo) }
            #expect(object(viaCache).bytes(status: .completed, output: [], usage: nil) == object(fresh).bytes(status: .completed, output: [], usage: nil))
            for tool in viaCache.request.tools where !fresh.request.tools.isEmpty { #expect(tool.schema.isText) }
        }
    }

    @Test func aRepeatedListIsAHit() throws {
        let cache = ToolListCache()
        _ = try OpenAIResponsesFormat.decodeInboundRequest(Self.body(tools: Self.tools), toolCache: cache, scope: "t")
        _ = try OpenAIResponsesFormat.decodeInboundRequest(Self.body(tools: Self.tools, before: #""temperature":0.5,"#), toolCache: cache, scope: "t")
        #expect(cache.statistics.entries == 1)
        #expect(cache.statistics.hits == 1)
        _ = try OpenAIResponsesFormat.decodeInboundRequest(Self.body(tools: Self.tools), toolCache: cache, scope: "other")
        #expect(cache.statistics.entries == 2)
    }

    /// The same tools after an error elsewhere (a second `tools` member among them), or with an error of their own: the
    /// same error with and without the cache, and nothing kept for a request that did not decode.
    static let refused: [[UInt8]] = [
        body(tools: tools, before: #""temperature":"hot","#),
        body(tools: tools, after: #","tools":[{"type":"function","name":"ignored"}]"#),
        body(tools: "[]", after: #","tools":[{"type":"function","name":"a second member is not the list"}]"#),
        Array(#"{"model":"m","input":[],"tools":\#(tools)}"#.utf8),
        body(tools: #"[{"type":"function","name":"a","parameters":"not a schema"}]"#),
        body(tools: #"[{"type":"web_search"}]"#),
        body(tools: #"{"type":"function","name":"not a list"}"#),
        body(tools: tools, before: #""tool_choice":{"type":"function","name":"absent"},"#),
        body(tools: #"[{"type":"function","name":"a","parameters":{"type":}}]"#),
        Array(#"{"model":"m","input":"hi","tools":\#(tools)"#.utf8),
    ]

    @Test(arguments: refused)
    func errorsAreTheSameAndNothingIsKept(body: [UInt8]) {
        let cache = ToolListCache()
        func message(_ run: () throws -> Void) -> String? {
            do { try run(); return nil } catch let error as GatewayError { return "\(error.message) [\(error.param ?? "")]" } catch { return "\(error)" }
        }
        let fresh = message { _ = try OpenAIResponsesFormat.decodeInboundRequest(body) }
        #expect(fresh != nil)
        for _ in 0..<2 {
            #expect(message { _ = try OpenAIResponsesFormat.decodeInboundRequest(body, toolCache: cache, scope: "token-1") } == fresh)
        }
        #expect(cache.statistics.entries == 0)
    }

    /// A list kept after a good request is taken for a later request that fails elsewhere, or that names a tool the
    /// list does not have: the later error is the one a fresh decode gives.
    @Test func aKeptListDoesNotHideAnotherFieldsError() throws {
        let cache = ToolListCache()
        _ = try OpenAIResponsesFormat.decodeInboundRequest(Self.body(tools: Self.tools), toolCache: cache, scope: "t")
        for bad in [Self.body(tools: Self.tools, before: #""temperature":"warm","#),
                    Self.body(tools: Self.tools, before: #""tool_choice":{"type":"function","name":"absent"},"#)] {
            var fresh: String?
            do { _ = try OpenAIResponsesFormat.decodeInboundRequest(bad) } catch let e as GatewayError { fresh = e.message }
            var viaCache: String?
            do { _ = try OpenAIResponsesFormat.decodeInboundRequest(bad, toolCache: cache, scope: "t") } catch let e as GatewayError { viaCache = e.message }
            #expect(fresh != nil && viaCache == fresh)
        }
        #expect(cache.statistics.hits >= 2)
    }
}
