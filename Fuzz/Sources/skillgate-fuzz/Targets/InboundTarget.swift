@testable import SkillGateServer
import SkillGateCore
@testable import SkillGateProviders

/// The request decoders of the gateway's surfaces (SkillGateServer/Surfaces and the wire-format
/// decoders they use): the first byte picks OpenAI chat, Anthropic messages, the agent surface or
/// the Responses surface, the rest is the body. An accepted request is then rendered into every upstream format
/// (`makeRequest`, each provider's token-count request, and prompt-injected tools), which must not crash either.
enum InboundTarget: FuzzTarget {
    static let surfaces: [any Surface] = [OpenAIChatSurface(), AnthropicMessagesSurface(), AgentSurface(), ResponsesSurface()]

    /// Kept across inputs, so that a `tools` array an earlier input left there is taken from it (`ToolListCache`).
    static let toolCache = ToolListCache(maxEntries: 8)

    static func run(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let body = Array(data.dropFirst())
        if Int(selector) % surfaces.count == 0 {
            checkAgainstTree(body)
            checkToolCache(body)
        }
        if Int(selector) % surfaces.count == 1 { checkAnthropicToolCache(body) }
        if Int(selector) % surfaces.count == 3 { checkResponsesToolCache(body) }
        guard let decoded = try? surfaces[Int(selector) % surfaces.count].decode(body) else { return }
        var deployment = Deployment(providerId: "fuzz", model: "m", baseURL: "http://127.0.0.1:9", auth: .bearer, apiKey: "k")
        deployment.countsInputTokens = true
        for stream in [false, true] {
            // Each format writes its body straight as bytes (decisions 0039, 0066, 0067): what it writes must be JSON.
            let formats: [(String, any WireFormat)] = [("openai", OpenAIChatFormat()), ("anthropic", AnthropicMessagesFormat()),
                                                       ("gemini", GeminiFormat())]
            for (name, format) in formats {
                guard let http = try? format.makeRequest(decoded.chat, deployment: deployment, stream: stream) else { continue }
                invariant((try? JSONValue.parse(http.body)) != nil, "the \(name) body is not JSON: \(String(decoding: http.body, as: UTF8.self))")
            }
        }
        // The providers' token-count requests (decision 0136) are written as bytes too: JSON as well.
        let counters: [(String, any WireFormat)] = [("openai", OpenAIChatFormat()), ("anthropic", AnthropicMessagesFormat()), ("gemini", GeminiFormat())]
        for (name, format) in counters {
            guard let count = try? format.makeCountTokensRequest(decoded.chat, deployment: deployment) else { continue }
            invariant((try? JSONValue.parse(count.body)) != nil, "the \(name) count body is not JSON: \(String(decoding: count.body, as: UTF8.self))")
        }
        _ = try? PromptToolsRenderer.prepare(decoded.chat)
    }

    /// Requires two ways of decoding one body to agree: the same value, or errors that print the same.
    static func requireSame<T: Equatable>(_ a: Result<T, any Error>, _ b: Result<T, any Error>, _ what: String) {
        switch (a, b) {
        case (.success(let a), .success(let b)): invariant(a == b, "\(what): \(a) != \(b)")
        case (.failure(let a), .failure(let b)): invariant("\(a)" == "\(b)", "\(what): \(a) != \(b)")
        case (let a, let b): invariant(false, "\(what): \(a) against \(b)")
        }
    }

    /// The OpenAI surface's decoder (messages read straight from the bytes when they can be, schemas kept as text) gives
    /// what decoding the body's tree gives: the same request, or the same error naming the same field.
    static func checkAgainstTree(_ body: [UInt8]) {
        let direct = Result { try OpenAIChatFormat.decodeInboundRequest(body) }
        let viaTree: Result<OpenAIChatInboundRequest, any Error> = Result {
            do { return try OpenAIChatFormat.decodeInboundRequest(json: JSONValue.parse(body, duplicateKeys: .refused)) } catch let e as JSONSyntaxError {
                throw GatewayError.invalidRequest("the request body is not valid JSON (\(e)); send a JSON object like {\"model\":...,\"messages\":[...]}")
            }
        }
        requireSame(direct, viaTree, "read directly against through the tree")
    }

    /// With the tool cache, twice (a miss, then a hit if the request decoded), the OpenAI surface's decoder gives what
    /// it gives without: the same request, or the same error.
    static func checkToolCache(_ body: [UInt8]) {
        func outcome(_ cache: ToolListCache?) -> Result<OpenAIChatInboundRequest, any Error> {
            Result { try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "fuzz") }
        }
        let without = outcome(nil)
        for round in 0..<2 { requireSame(outcome(toolCache), without, "with the tool cache (round \(round)) against without") }
    }

    /// The same for the Anthropic surface's decoder, in a scope of its own (decision 0062).
    static func checkAnthropicToolCache(_ body: [UInt8]) {
        struct Decoded: Equatable { var request: ChatRequest; var stream: Bool }
        func outcome(_ cache: ToolListCache?) -> Result<Decoded, any Error> {
            Result {
                let decoded = try AnthropicMessagesFormat.decodeInbound(body, toolCache: cache, scope: "fuzz-anthropic")
                return Decoded(request: decoded.request, stream: decoded.stream)
            }
        }
        let without = outcome(nil)
        for round in 0..<2 { requireSame(outcome(toolCache), without, "with the tool cache (round \(round)) against without") }
    }

    /// The same for the Responses surface's decoder, in a scope of its own (decision 0069): the same request and echo.
    static func checkResponsesToolCache(_ body: [UInt8]) {
        func outcome(_ cache: ToolListCache?) -> Result<ResponsesInboundRequest, any Error> {
            Result { try OpenAIResponsesFormat.decodeInboundRequest(body, toolCache: cache, scope: "fuzz-responses") }
        }
        let without = outcome(nil)
        for round in 0..<2 { requireSame(outcome(toolCache), without, "with the tool cache (round \(round)) against without") }
    }

    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (selector, provider) in [(0, "openai"), (1, "anthropic"), (2, "openai")] {
            for body in fixtures.documents(provider, containing: "request") { out.append([UInt8(selector)] + body) }
        }
        out.append([1] + Array(#"{"model":"m","max_tokens":5,"system":[{"type":"text","text":"s"}],"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}]}]}"#.utf8))
        out.append([2] + Array(#"{"scenario":"x","messages":[{"role":"user","content":"hi"}]}"#.utf8))
        out.append([3] + Array(#"""
            {"model":"m","instructions":"be brief","input":"hi","tools":[{"type":"function","name":"get_weather","description":"Weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}},{"type":"function","name":"now","strict":true}],"tool_choice":{"type":"function","name":"now"},"temperature":0.2,"max_output_tokens":64,"stream":true}
            """#.utf8))
        out.append([3] + Array(#"""
            {"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"ok"}],"tools":[{"type":"function","name":"f","parameters":{"type":"object"}}],"text":{"format":{"type":"json_object"}},"reasoning":{"effort":"low"},"metadata":{"k":"v"}}
            """#.utf8))
        out.append([0] + Array(#"""
            {"model":"m","messages":[{"role":"developer","content":[{"type":"text","text":"be brief"}]},{"role":"user","name":"a","content":[{"type":"text","text":"hi"},{"type":"image_url","image_url":{"url":"https://x/y.png"}}]},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}},{"id":"c2","type":"function","function":{"name":"g","arguments":{"b":2}}}]},{"role":"tool","tool_call_id":"c1","content":"one"},{"role":"tool","tool_call_id":"c2","content":[{"type":"text","text":"two"}]},{"role":"assistant","content":[{"type":"refusal","refusal":"no"}]}],"stream":true}
            """#.utf8))
        return out
    }
}
