import Synchronization
import SkillGateCore
import SkillGateProviders
@testable import SkillGateServer

/// A fake `LLMClient` per deployment, answering each call with the next scripted outcome (the
/// last one repeats). Counts calls; `hold` keeps a call open until released (in-flight tests).
final class ScriptedLLMClient: LLMClient {
    enum Outcome: Sendable {
        case answer(ChatResponse)
        case fail(GatewayError)
        /// Streams `events`, then fails with the error (after the first event reached the caller).
        case streamThenFail([ChatStreamEvent], GatewayError)
    }

    private let script: Mutex<[Outcome]>
    private let callCount = Mutex(0)

    init(_ outcomes: [Outcome]) { script = Mutex(outcomes) }

    var calls: Int { callCount.locked { $0 } }

    private func nextOutcome() -> Outcome {
        callCount.locked { $0 += 1 }
        return script.locked { s in s.count > 1 ? s.removeFirst() : s[0] }
    }

    func complete(_ request: ChatRequest) async throws -> ChatResponse {
        switch nextOutcome() {
        case .answer(let r): return r
        case .fail(let e), .streamThenFail(_, let e): throw e
        }
    }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error> {
        let outcome = nextOutcome()
        return AsyncThrowingStream { c in
            switch outcome {
            case .answer(let r):
                c.yield(.start(id: r.id, model: r.model))
                for (i, call) in r.toolCalls.enumerated() {
                    c.yield(.toolCallStart(ordinal: i, id: call.id, name: call.name))
                    c.yield(.toolCallEnd(ordinal: i))
                }
                if !r.text.isEmpty { c.yield(.textDelta(r.text)) }
                c.yield(.finish(r.finishReason))
                c.finish()
            case .fail(let e):
                c.finish(throwing: e)
            case .streamThenFail(let events, let e):
                for ev in events { c.yield(ev) }
                c.finish(throwing: e)
            }
        }
    }
}

enum ResilienceFixtures {
    static func target(_ provider: String, _ model: String = "m") -> RouteTarget {
        let spec = ProviderSpec(id: provider, displayName: provider, wireFormat: .openAIChat, baseURL: "http://127.0.0.1:9/v1", auth: .none,
                                models: [ModelSpec(id: model, tier: .light, contextWindow: 8000)])
        return RouteTarget(provider: spec, model: spec.models[0])
    }

    static func plan(_ targets: [RouteTarget]) -> RoutePlan {
        RoutePlan(requested: "light", targets: targets, explanation: "tier light")
    }

    static let request = ChatRequest(model: "light", messages: [Message(role: .user, text: "hi")])

    static func text(_ s: String) -> ChatResponse {
        ChatResponse(id: "r", model: "m", content: [.text(s)], finishReason: .stop)
    }

    static func toolCalls(_ ids: [String]) -> ChatResponse {
        ChatResponse(id: "r", model: "m", content: ids.map { .toolCall(ToolCall(id: $0, name: "get_weather", arguments: "{}")) },
                     finishReason: .toolCalls)
    }

    static func rateLimited(_ provider: String, retryAfter: Double? = nil) -> GatewayError {
        GatewayError(domain: .provider, kind: .rateLimited, status: 429, message: "rate limited", provider: provider,
                     upstreamStatus: 429, retryAfter: retryAfter)
    }

    static func serverError(_ provider: String, _ status: Int = 500) -> GatewayError {
        GatewayError(domain: .provider, kind: .upstreamError, status: 502, message: "upstream \(status)", provider: provider, upstreamStatus: status)
    }

    static func overloaded(_ provider: String) -> GatewayError {
        GatewayError(domain: .provider, kind: .upstreamOverloaded, status: 503, message: "overloaded", provider: provider, upstreamStatus: 529,
                     upstreamCode: "overloaded_error")
    }

    static func timeout(_ provider: String) -> GatewayError {
        GatewayError(domain: .provider, kind: .upstreamTimeout, status: 504, message: "first byte timeout", provider: provider)
    }

    static func badRequest(_ provider: String) -> GatewayError {
        GatewayError(domain: .provider, kind: .invalidRequest, status: 400, message: "bad", provider: provider, upstreamStatus: 400)
    }

    /// The provider refused the gateway's key (as the adapters map a 401).
    static func refusedKey(_ provider: String) -> GatewayError {
        GatewayError(domain: .provider, kind: .upstreamError, status: 502, message: "key rejected", provider: provider,
                     upstreamStatus: 401, upstreamCode: "invalid_api_key", refusal: .key)
    }

    /// The provider does not know the catalog's model id (as the adapters map a 404 `model_not_found`).
    static func unknownModel(_ provider: String) -> GatewayError {
        GatewayError(domain: .provider, kind: .notFound, status: 404, message: "no such model", provider: provider,
                     upstreamStatus: 404, upstreamCode: "model_not_found", refusal: .model)
    }

    static func missingKey(_ provider: String) -> GatewayError {
        GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503, message: "no key", provider: provider)
    }
}
