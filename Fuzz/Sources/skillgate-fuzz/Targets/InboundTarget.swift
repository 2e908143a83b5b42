@testable import SkillGateServer
import SkillGateCore
@testable import SkillGateProviders

/// The request decoders of the gateway's surfaces (SkillGateServer/Surfaces and the wire-format
/// decoders they use): the first byte picks OpenAI chat, Anthropic messages or the agent surface,
/// the rest is the body. An accepted request is then rendered into every upstream format
/// (`makeRequest`, and prompt-injected tools), which must not crash either.
enum InboundTarget: FuzzTarget {
    static let surfaces: [any Surface] = [OpenAIChatSurface(), AnthropicMessagesSurface(), AgentSurface()]

    /// Kept across inputs, so that a `tools` array an earlier input left there is taken from it (`ToolListCache`).
    static let toolCache = ToolListCache(maxEntries: 8)

    static func run(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let body = Array(data.dropFirst())
        if Int(selector) % surfaces.count == 0 { checkToolCache(body) }
        guard let decoded = try? surfaces[Int(selector) % surfaces.count].decode(body) else { return }
        let deployment = Deployment(providerId: "fuzz", model: "m", baseURL: "http://127.0.0.1:9", auth: .bearer, apiKey: "k")
        for stream in [false, true] {
            _ = try? OpenAIChatFormat().makeRequest(decoded.chat, deployment: deployment, stream: stream)
            _ = try? AnthropicMessagesFormat().makeRequest(decoded.chat, deployment: deployment, stream: stream)
            _ = try? GeminiFormat().makeRequest(decoded.chat, deployment: deployment, stream: stream)
        }
        _ = try? PromptToolsRenderer.prepare(decoded.chat)
    }

    /// With the tool cache, twice (a miss, then a hit if the request decoded), the OpenAI surface's decoder gives what
    /// it gives without: the same request, or the same error.
    static func checkToolCache(_ body: [UInt8]) {
        func outcome(_ cache: ToolListCache?) -> Result<OpenAIChatInboundRequest, any Error> {
            Result { try OpenAIChatFormat.decodeInboundRequest(body, toolCache: cache, scope: "fuzz") }
        }
        let without = outcome(nil)
        for round in 0..<2 {
            switch (outcome(toolCache), without) {
            case (.success(let a), .success(let b)): invariant(a == b, "with the tool cache (round \(round)): \(a) != \(b)")
            case (.failure(let a), .failure(let b)): invariant("\(a)" == "\(b)", "with the tool cache (round \(round)): \(a) != \(b)")
            case (let a, let b): invariant(false, "with the tool cache (round \(round)): \(a), without: \(b)")
            }
        }
    }

    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (selector, provider) in [(0, "openai"), (1, "anthropic"), (2, "openai")] {
            for body in fixtures.documents(provider, containing: "request") { out.append([UInt8(selector)] + body) }
        }
        out.append([1] + Array(#"{"model":"m","max_tokens":5,"system":[{"type":"text","text":"s"}],"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}]}]}"#.utf8))
        out.append([2] + Array(#"{"scenario":"x","messages":[{"role":"user","content":"hi"}]}"#.utf8))
        return out
    }
}
