import SkillGateCore
import SkillGateProviders

/// Turns the model a client asked for into a `RoutePlan`, within the scenario's and the token's scope.
///
/// Accepts `auto` (or nothing), a tier (`light`, `strong`), an alias from config, `provider/model`,
/// or a bare model id that exactly one enabled provider offers.
public struct ModelResolver: Sendable {
    public let config: GatewayConfig
    public let catalog: ProviderCatalog
    /// Every model name resolved once (`RoutingTable`): requests only look names up.
    let table: RoutingTable

    public init(config: GatewayConfig, catalog: ProviderCatalog) {
        self.config = config
        self.catalog = catalog
        table = RoutingTable(config: config, catalog: catalog)
    }

    /// Resolves `requested` for a request in `scenario` made with a token of `scope`. `auto` or
    /// nothing is routed with no task features (the chat pipeline calls `plan(for:tierHeader:...)`,
    /// which scores the request itself).
    public func plan(requested: String?, scenario: GatewayConfig.ScenarioConfig, scope: AccessScope) throws(GatewayError) -> RoutePlan {
        let name = requested?.trimmingSpacesAndTabs() ?? ""
        var explanation: [String] = []
        if name.isEmpty || name == "auto" {
            // Scored from the request (ModelResolver+Auto.swift); without one, the features are empty.
            return try autoPlan(for: ChatRequest(model: name, messages: []), hint: nil, scenario: scenario, scope: scope)
        }
        let (targets, steps) = try table.resolve(name)
        explanation = steps
        let allowed = targets.filter { t in
            permitted(t, requested: name, by: scenario.allowedModels) && permitted(t, requested: name, by: scope.models)
        }
        guard !allowed.isEmpty else {
            // Says what is allowed, as the scenario's 403 does: the lists that keep the model out.
            var lists: [String] = []
            if !scope.models.isEmpty { lists.append("the token may use \(Self.named(scope.models))") }
            if !scenario.allowedModels.isEmpty { lists.append("the scenario allows \(Self.named(scenario.allowedModels))") }
            throw GatewayError(domain: .policy, kind: .permission, status: 403,
                               message: "model \"\(name)\" is outside what this token and scenario may use (\(lists.joined(separator: "; "))); pick one of those, or GET /v1/models lists every model name allowed",
                               param: "model")
        }
        return RoutePlan(requested: requested ?? "", targets: allowed, explanation: explanation.joined(separator: "; "),
                         route: ModelTier(rawValue: name).map { "tier=\($0.rawValue); by=request" } ?? "tier=none; by=request")
    }

    private func isEnabled(_ p: ProviderSpec) -> Bool { config.isEnabled(p) }

    /// At most ten names of `list`, quoted, and how many more.
    private static func named(_ list: [String]) -> String {
        let shown = list.prefix(10).map { "\"\($0)\"" }.joined(separator: ", ")
        return list.count > 10 ? "\(shown) and \(list.count - 10) more" : shown
    }

    private func permitted(_ target: RouteTarget, requested: String, by list: [String]) -> Bool {
        table.permits(list, target, requested: requested)
    }

    /// Every target the scope and scenario allow, for `/v1/models`.
    public func visibleModels(scenario: GatewayConfig.ScenarioConfig, scope: AccessScope) -> [RouteTarget] {
        catalog.providers.filter(isEnabled).flatMap { p in p.chatModels.map { RouteTarget(provider: p, model: $0) } }.filter { t in
            permitted(t, requested: t.qualifiedName, by: scenario.allowedModels) && permitted(t, requested: t.qualifiedName, by: scope.models)
        }
    }
}
