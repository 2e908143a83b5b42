import SkillGateProviders
import SkillGateRouting

/// One concrete model a request can go to.
///
/// A reference, built once when the routing table is resolved: plans, attempts, streams and log entries
/// share it instead of copying the provider's and model's specs (a few hundred bytes and a dozen strings
/// each), which kept every async frame that held a target large for the whole request (decision 0033).
public final class RouteTarget: Sendable, Hashable {
    public let provider: ProviderSpec
    public let model: ModelSpec
    /// `provider/model`, made once.
    public let qualifiedName: String

    public init(provider: ProviderSpec, model: ModelSpec) {
        self.provider = provider
        self.model = model
        qualifiedName = "\(provider.id)/\(model.id)"
    }

    /// Equal when both specs are (targets resolved separately from one catalog are equal).
    public static func == (a: RouteTarget, b: RouteTarget) -> Bool {
        a === b || (a.qualifiedName == b.qualifiedName && a.provider == b.provider && a.model == b.model)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(qualifiedName)
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

    /// Whether the token may use `scenario`.
    public func allows(scenario: String) -> Bool {
        scenarios.isEmpty || scenarios.contains(scenario)
    }

    /// The scenario for a request that names none: the token's default, else the one scenario it is scoped to (a
    /// token made with `--scenario cheap` alone runs in `cheap` without being told), else `gatewayDefault`.
    public func scenario(whenNoneNamedBy gatewayDefault: String) -> String {
        defaultScenario ?? (scenarios.count == 1 ? scenarios[0] : gatewayDefault)
    }
}
