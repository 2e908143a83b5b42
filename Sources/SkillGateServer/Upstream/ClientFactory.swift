import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateProviders
import SkillGateRouting

/// Builds the `LLMClient` for a route target: the provider's wire format, its base URL (or the
/// configured override), the key from the key store, and prompt-injected tools for models
/// without native tool calling. Cheap enough to run per request, so changed keys apply at once.
///
/// A provider may have several keys (`OPENAI_API_KEY`, `OPENAI_API_KEY_2`, ...): each call takes one
/// from the provider's `KeyPool` (fewest calls in flight; a key refused with 401 or 429 cools down on
/// its own), and the returned `UpstreamClient` holds it until the call ends.
final class ClientFactory: Sendable {
    let config: GatewayConfig
    let keys: KeyStore
    let http: HTTPClient
    /// The keys' in-flight counts and cooldowns, shared by every provider (pools are told apart by name).
    let keyPool: KeyPool
    /// `upstream_timeouts` as durations, converted once (from seconds, on every request, it was four conversions of a
    /// `Double` into a `Duration`'s 128-bit count).
    private let timeouts: HTTPTimeouts

    init(config: GatewayConfig, keys: KeyStore, http: HTTPClient, clock: any ResilienceClock = SystemResilienceClock()) {
        self.config = config
        self.keys = keys
        self.http = http
        keyPool = KeyPool(cooldown: config.resilience.policy.cooldown, clock: clock)
        let t = config.upstreamTimeouts
        timeouts = HTTPTimeouts(connect: .seconds(t.connectSeconds), firstByte: .seconds(t.firstByteSeconds),
                                idle: .seconds(t.idleSeconds), total: .seconds(t.totalSeconds))
    }

    /// Whether `target` can be called as the keys are now: its provider needs no key, or one is set under its key name.
    /// A provider whose key is not set answers 503 "no key is set"; `GET /v1/models` leaves its models out.
    func hasKey(for target: RouteTarget) -> Bool {
        guard let keyName = keyName(of: target.provider) else { return true }
        return !keys.pool(named: keyName).isEmpty
    }

    /// The key store name of `spec`'s key (the config's override, else the catalog's); nil when it takes none.
    private func keyName(of spec: ProviderSpec) -> String? {
        spec.auth == .none ? nil : config.providerOverrides[spec.id]?.keyName ?? spec.keyName
    }

    /// The deployment (endpoint, key, timeouts) of a target, the lease on its key when it has a pool of them, and the
    /// provider's keys as they are now (for `keyVersion(of:)`).
    func deployment(for target: RouteTarget) throws(GatewayError) -> (Deployment, KeyLease?, [(name: String, secret: String)]) {
        let spec = target.provider
        let override = config.providerOverrides[spec.id]
        var apiKey: String?
        var usedKeyName: String?
        var lease: KeyLease?
        var pool: [(name: String, secret: String)] = []
        if let keyName = keyName(of: spec) {
            pool = keys.pool(named: keyName)
            guard !pool.isEmpty else {
                throw GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503,
                                   message: "no key is set for provider \"\(spec.id)\"; the operator can add it with `skillgate keys set \(keyName)`",
                                   provider: spec.id)
            }
            if pool.count == 1 {
                apiKey = pool[0].secret
                usedKeyName = pool[0].name
            } else {
                // Each key with a version of its secret: a key cooled down is ready again once the operator sets a new
                // secret under its name (decision 0110).
                let taken = keyPool.acquire(pool.map { KeyPool.Member(name: $0.name, version: Self.version(of: $0.secret)) })
                apiKey = pool.first { $0.name == taken.name }?.secret
                usedKeyName = taken.name
                lease = taken
            }
        }
        var deployment = Deployment(providerId: spec.id, model: target.model.id, baseURL: override?.baseURL ?? spec.baseURL, auth: spec.auth,
                                    apiKey: apiKey, extraHeaders: spec.headers, timeouts: timeouts)
        deployment.keyName = usedKeyName
        deployment.httpVersion = spec.httpVersion
        deployment.caFile = override?.caFile
        deployment.countsInputTokens = override?.countTokens ?? spec.countsTokens
        return (deployment, lease, pool)
    }

    /// The version of the secret a target's provider key has now (of a pool: of all its secrets, in order); nil when
    /// the provider needs no key or none is set. A deployment cooled down because its key was refused is ready again
    /// once this changes (decision 0115).
    func keyVersion(for target: RouteTarget) -> Int? {
        let spec = target.provider
        guard spec.auth != .none, let keyName = config.providerOverrides[spec.id]?.keyName ?? spec.keyName else { return nil }
        return Self.keyVersion(of: keys.pool(named: keyName))
    }

    /// The version of a provider's keys (`keyVersion(for:)`); nil for none.
    static func keyVersion(of pool: [(name: String, secret: String)]) -> Int? {
        guard !pool.isEmpty else { return nil }
        var hasher = Hasher()
        for key in pool { hasher.combine(key.secret) }
        return hasher.finalize()
    }

    /// A version of `secret` that tells two secrets apart within this process (a seeded hash; never logged or stored).
    static func version(of secret: String) -> Int {
        var hasher = Hasher()
        hasher.combine(secret)
        return hasher.finalize()
    }

    /// The client for a target. With `within`, the connect and first-byte timeouts are capped to it
    /// (the time left of the request's retry deadline); the answer itself may then take its time.
    func client(for target: RouteTarget, within remaining: Duration? = nil) throws(GatewayError) -> UpstreamClient {
        let (configured, lease, pool) = try deployment(for: target)
        var deployment = configured
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
        let llm = target.model.tools == .prompt ? PromptToolsClient(inner: base, providerId: target.provider.id) : base
        return UpstreamClient(llm, key: lease, keys: pool)
    }
}

/// The client of one upstream call, with the key it holds (when the provider has a pool of keys).
struct UpstreamClient: Sendable {
    let llm: any LLMClient
    /// The pooled key this call uses; released with the call.
    let key: KeyLease?
    /// The provider's keys as the call found them; only a refusal of the key reads them (`keyVersion`), so the common
    /// call hashes no secret.
    private let keys: ProviderKeys

    init(_ llm: any LLMClient, key: KeyLease? = nil, keys: [(name: String, secret: String)] = []) {
        self.llm = llm
        self.key = key
        self.keys = ProviderKeys(pool: keys)
    }

    /// The version of the provider's keys at the call (`ClientFactory.keyVersion(of:)`); nil when it used none.
    var keyVersion: Int? { ClientFactory.keyVersion(of: keys.pool) }
}

/// A provider's keys as one call found them, kept only to tell their version after a refusal. Never printed: its
/// description and mirror give the count, not the secrets.
struct ProviderKeys: Sendable, CustomStringConvertible, CustomReflectable {
    let pool: [(name: String, secret: String)]

    var description: String { "\(pool.count) key(s), secrets redacted" }
    var customMirror: Mirror { Mirror(self, children: ["count": pool.count]) }
}
