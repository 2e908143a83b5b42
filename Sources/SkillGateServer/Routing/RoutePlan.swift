import SkillGateProviders
import SkillGateRouting

/// One concrete model a request can go to.
public struct RouteTarget: Sendable, Hashable {
    public var provider: ProviderSpec
    public var model: ModelSpec
    /// `provider/model`.
    public var qualifiedName: String { "\(provider.id)/\(model.id)" }

    public init(provider: ProviderSpec, model: ModelSpec) {
        self.provider = provider
        self.model = model
    }
}

/// Where a request goes: the preferred target first, then fallbacks, with the reason.
public struct RoutePlan: Sendable, Hashable {
    /// What the client asked for (`auto`, `light`, an alias, `provider/model`, a bare model id).
    public var requested: String
    /// Targets in order of preference; never empty.
    public var targets: [RouteTarget]
    /// How the request resolved, step by step ("alias fast → demo/demo-light; tier light").
    public var explanation: String
    /// The `x-skillgate-route` header value and the log's `route` field (ASCII):
    /// `tier=strong; by=score; score=0.85; reasons=...`, `tier=light; by=request`, `tier=none; by=scenario`.
    public var route: String = ""
    /// The scored (or header-forced) tier decision when the client asked for `auto` or no model.
    public var decision: TierDecision?

    public var primary: RouteTarget { targets[0] }
}

/// What a client token may use.
public struct AccessScope: Sendable, Hashable {
    /// Scenario names the token may use; empty = all.
    public var scenarios: [String]
    /// Tiers, aliases or `provider/model`s the token may use; empty = all.
    public var models: [String]
    /// The scenario used when the request names none; `nil` = the gateway default.
    public var defaultScenario: String?

    public init(scenarios: [String] = [], models: [String] = [], defaultScenario: String? = nil) {
        self.scenarios = scenarios
        self.models = models
        self.defaultScenario = defaultScenario
    }

    /// Full access.
    public static let unrestricted = AccessScope()
}
