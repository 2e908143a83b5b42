import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateProviders

/// Builds the `LLMClient` for a route target: the provider's wire format, its base URL (or the
/// configured override), the key from the key store, and prompt-injected tools for models
/// without native tool calling. Cheap enough to run per request, so changed keys apply at once.
final class ClientFactory: Sendable {
    let config: GatewayConfig
    let keys: KeyStore
    let http: HTTPClient

    init(config: GatewayConfig, keys: KeyStore, http: HTTPClient) {
        self.config = config
        self.keys = keys
        self.http = http
    }

    /// The deployment (endpoint, key, timeouts) of a target.
    func deployment(for target: RouteTarget) throws(GatewayError) -> Deployment {
        let spec = target.provider
        let override = config.providerOverrides[spec.id]
        var apiKey: String?
        if spec.auth != .none, let keyName = override?.keyName ?? spec.keyName {
            guard let secret = keys.secret(named: keyName) else {
                throw GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503,
                                   message: "no key is set for provider \"\(spec.id)\"; the operator can add it with `skillgate keys set \(keyName)`",
                                   provider: spec.id)
            }
            apiKey = secret
        }
        let t = config.upstreamTimeouts
        var deployment = Deployment(providerId: spec.id, model: target.model.id, baseURL: override?.baseURL ?? spec.baseURL, auth: spec.auth,
                          apiKey: apiKey, extraHeaders: spec.headers,
                          timeouts: HTTPTimeouts(connect: .seconds(t.connectSeconds), firstByte: .seconds(t.firstByteSeconds),
                                                 idle: .seconds(t.idleSeconds), total: .seconds(t.totalSeconds)))
        deployment.httpVersion = spec.httpVersion
        return deployment
    }

    /// The client for a target. With `within`, the connect and first-byte timeouts are capped to it
    /// (the time left of the request's retry deadline); the answer itself may then take its time.
    func client(for target: RouteTarget, within remaining: Duration? = nil) throws(GatewayError) -> any LLMClient {
        var deployment = try deployment(for: target)
        if let remaining {
            let cap = max(remaining, .milliseconds(1))
            deployment.timeouts.connect = min(deployment.timeouts.connect ?? cap, cap)
            deployment.timeouts.firstByte = min(deployment.timeouts.firstByte ?? cap, cap)
        }
        let base: any LLMClient
        switch target.provider.wireFormat {
        case .openAIChat: base = HTTPLLMClient(format: OpenAIChatFormat(), deployment: deployment, http: http)
        case .anthropicMessages: base = HTTPLLMClient(format: AnthropicMessagesFormat(), deployment: deployment, http: http)
        case .gemini: base = HTTPLLMClient(format: GeminiFormat(), deployment: deployment, http: http)
        case .demo: base = DemoModelClient()
        }
        // Answers are checked by the execute stage (Execution/AnswerCheck.swift), not here.
        return target.model.tools == .prompt ? PromptToolsClient(inner: base, providerId: target.provider.id) : base
    }
}
