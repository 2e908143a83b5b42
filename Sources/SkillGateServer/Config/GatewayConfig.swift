import SkillGateCore
import SkillGateProviders
import SkillGateRouting
import SkillGateSkills
import SkillGateState

/// The gateway's configuration (`Config/skillgate.json` by default).
///
/// Relative paths in the file are resolved against the directory of the config file, so the
/// gateway behaves the same whatever the working directory is.
public struct GatewayConfig: Sendable {
    /// Where to listen.
    public var host: String
    public var port: Int
    /// `reuse_port`: share the listen address with other processes that set it too (SO_REUSEPORT; the
    /// kernel splits connections between them). Off: a second gateway on the address fails to start.
    public var reusePort = false
    /// `upstream_http1`: `"own"` (the default) carries plain `http://` upstream requests to numeric addresses on
    /// SkillGate's own HTTP/1.1 client; `"libcurl"` sends every request through libcurl (decision 0051). TLS
    /// upstreams always use libcurl.
    public var ownHTTP1Client = true
    /// `warm_code`: when a request comes to an event loop that slept, prefetch the code it runs through into the CPU
    /// cache first, and its answer's code while the upstream is awaited (decisions 0054, 0055). On by default: paired
    /// runs brought the first streamed event 32–72 µs sooner, idle and after load alike, at no cost per request.
    public var warmCode = true
    /// Directory for the SQLite state store (tokens, usage).
    public var stateDirectory: String
    /// The provider key file (0600 in a 0700 directory).
    public var keyFile: String
    /// The provider catalog directory (`Providers/`).
    public var providersDirectory: String
    /// Per-provider overrides by provider id.
    public var providerOverrides: [String: ProviderOverride]
    /// Model aliases: a name clients may send → `provider/model`.
    public var aliases: [String: String]
    /// Tiers: `light` and `strong`, each an ordered list of `provider/model` (first = preferred).
    public var tiers: [ModelTier: [String]]
    /// What `"model": "auto"` (or no model) means when the scenario says nothing: a tier, alias or `provider/model`.
    public var defaultModel: String
    /// Scenarios by name.
    public var scenarios: [String: ScenarioConfig]
    /// The scenario used when neither the request nor the token names one.
    public var defaultScenario: String
    /// Skill packs by name (see `GatewayConfig+Skills.swift`).
    public var skillPacks: [String: SkillPack]
    /// Optional skill metadata (description, keywords) for relevance ranking, by skill name.
    public var skillMetadata: [String: SkillMetadata]
    public var limits: Limits
    public var upstreamTimeouts: UpstreamTimeouts
    /// How `auto` picks a tier (`routing`; see GatewayConfig+Routing.swift).
    public var routing: RoutingSettings
    /// Retries, cooldowns, load balancing and stickiness (`GatewayConfig+Resilience.swift`).
    public var resilience = Resilience()
    /// Skills SkillGate runs itself: built-ins and webhooks (`GatewayConfig+ServerSkills.swift`).
    public var serverSkills = ServerSkillsConfig()
    /// MCP servers whose tools are server-side skills (`GatewayConfig+MCPServers.swift`).
    public var mcpServers: [MCPServerConfig] = []
    /// Limits of the agent loop (`GatewayConfig+Agent.swift`).
    public var agent = Agent()
    /// How long the Responses API keeps answers for `previous_response_id` (`GatewayConfig+Responses.swift`).
    public var responses = Responses()
    /// Lexical or hybrid (embedding) skill ranking (`GatewayConfig+SkillRanking.swift`).
    public var skillRanking = SkillRanking()
    /// Limits and budgets of every token that sets none of its own (`token_limits`; decision 0027).
    public var tokenLimits = TokenLimits()
    /// `prompt_caching.breakpoints`: cache breakpoints the gateway adds for Anthropic-format providers (decision 0032).
    public var promptCaching: CacheBreakpointPlacement = .off
    /// The exact-match response cache (`response_cache`; decision 0140): off unless turned on.
    public var responseCache = ResponseCacheSettings()
    /// The usage ledger (`ledger`).
    public var ledger = Ledger()
    /// Prometheus metrics (`metrics`).
    public var metrics = Metrics()
    /// `state.postgres_url`: tokens and the usage ledger in PostgreSQL, shared by several instances; nil: the SQLite
    /// file in `state_dir` (notes and the embedding cache stay there either way). Never logged.
    public var postgresURL: String?
    /// `state.query_timeout_seconds`: the longest the gateway waits for PostgreSQL to answer one statement before it
    /// drops the connection and answers as if the database were down (decision 0163). Usage reports wait 12 times as long.
    public var postgresAnswerTimeout: Duration = PostgresStateStore.defaultAnswerTimeout
    /// The web console (`console`; decision 0030).
    public var console = Console(assetsDirectory: "Console")
    /// Which web pages may call the client API from a browser (`cors`; decision 0095); nil: none.
    public var crossOrigin: CrossOrigin?
    /// The file this was loaded from (for messages).
    public var sourceFile: String

    /// Per-provider configuration.
    public struct ProviderOverride: Sendable, Hashable {
        /// `false` hides the provider from routing and `/v1/models`.
        public var enabled: Bool
        /// Replaces the catalog base URL (proxies, regional endpoints, test doubles).
        public var baseURL: String?
        /// Replaces the catalog's key-store name.
        public var keyName: String?
        /// The certificate authorities (a PEM file, absolute once loaded) that the provider's TLS connections trust
        /// instead of the system's: a self-hosted upstream behind a private CA (`ca_file`).
        public var caFile: String?
        /// Replaces the catalog's `count_tokens`: whether the provider is asked to count input tokens at its format's
        /// count endpoint (off for a proxy or regional endpoint without it, on for a compatible server that has it); nil:
        /// the catalog's.
        public var countTokens: Bool?

        public init(enabled: Bool = true, baseURL: String? = nil, keyName: String? = nil) {
            self.enabled = enabled
            self.baseURL = baseURL
            self.keyName = keyName
        }
    }

    /// A scenario: which skills the model may see and which models it may use.
    public struct ScenarioConfig: Sendable, Hashable {
        public var description: String?
        /// The skill packs whose skills the model may see.
        public var skillPacks: [String]
        /// The scenario's default model (tier, alias or `provider/model`); `nil` = the gateway default.
        public var defaultModel: String?
        /// Tiers, aliases or `provider/model`s the scenario allows; empty = all.
        public var allowedModels: [String]
        /// Upper bound on skills shown to the model at once.
        public var maxVisibleSkills: Int?
        /// Disallowed-tool handling and escalation.
        public var skills: ScenarioSkillOptions
        /// Limits and budgets of the whole scenario, all tokens together (`scenarios.<name>.limits`).
        public var limits = TokenLimits()
        /// `scenarios.<name>.prompt_caching.breakpoints`; nil = the gateway's `prompt_caching`.
        public var promptCaching: CacheBreakpointPlacement?
        /// `scenarios.<name>.response_cache`; nil = the gateway's `response_cache` (decision 0140).
        public var responseCache: ScenarioResponseCache?

        public init(description: String? = nil, skillPacks: [String] = [], defaultModel: String? = nil, allowedModels: [String] = [], maxVisibleSkills: Int? = nil,
                    skills: ScenarioSkillOptions = ScenarioSkillOptions()) {
            self.description = description
            self.skillPacks = skillPacks
            self.defaultModel = defaultModel
            self.allowedModels = allowedModels
            self.maxVisibleSkills = maxVisibleSkills
            self.skills = skills
        }
    }

    /// Request and connection limits. `header_timeout_seconds` and `body_timeout_seconds` are totals: a
    /// request head must arrive within the first, counted from its first byte, and a body within the
    /// second, counted from the end of its head.
    public struct Limits: Sendable, Hashable {
        public var maxBodyBytes: Int = 4 * 1024 * 1024
        /// The most one model answer may carry through the gateway, in bytes (`max_answer_mib`, decision 0155).
        public var maxAnswerBytes: Int = AnswerSizeLimit.defaultMaxBytes
        public var shutdownGraceSeconds: Double = 10
        public var headerTimeoutSeconds: Double = 10
        public var bodyTimeoutSeconds: Double = 30
        /// Most client connections open at once; more are answered 503 and closed. 0: no cap.
        public var maxConnections = 1024
        /// Most client connections open at once from one IP address. 0 (default): no cap — behind a
        /// reverse proxy, or with local apps, every client has the same address.
        public var maxConnectionsPerIP = 0
        /// Most connections open to one upstream host at a time (and kept idle in the pool). Over HTTP/1.1 every
        /// request in flight needs its own, so this caps concurrent requests to a provider; requests beyond it wait
        /// for a free connection. Over HTTP/2 each connection carries up to 100 streams.
        public var upstreamConnectionsPerHost = 1024
        /// Connections the kernel queues for the listening socket before the gateway accepts them (`listen(2)`'s
        /// backlog; Linux caps it at `net.core.somaxconn`, 4096 by default). A burst beyond it is dropped or reset
        /// by the kernel before the gateway sees it.
        public var listenBacklog = 4096
        public init() {}
    }

    /// Timeouts of calls to providers.
    public struct UpstreamTimeouts: Sendable, Hashable {
        public var connectSeconds: Double = 10
        /// Half the default `resilience.deadline_seconds`, so a deployment that hangs leaves its fallback the other half
        /// (decision 0108).
        public var firstByteSeconds: Double = 60
        public var idleSeconds: Double = 120
        public var totalSeconds: Double = 600
        public init() {}
    }
}
