import SkillGateCore
import SkillGateProviders
import SkillGateRouting

extension ModelResolver {
    /// The scorer configured by `routing` in the config.
    public var router: TierRouter { config.routing.router }

    /// Plans a chat request: a concrete model, alias or tier is resolved as named (the
    /// `x-skillgate-tier` header does not override what the client named); `auto` or no model is
    /// scored from the request's features, leaning toward the scenario's default tier, unless
    /// the header forces a tier or the scenario's default is a concrete model or alias.
    /// - Parameter tierHeader: the raw `x-skillgate-tier` value; an invalid one is a 400.
    public func plan(for request: ChatRequest, tierHeader: String?, scenario: GatewayConfig.ScenarioConfig,
                     scope: AccessScope) throws(GatewayError) -> RoutePlan {
        let hint = try TierHint.parse(tierHeader)
        let name = request.model.trimmingSpacesAndTabs()
        guard name.isEmpty || name == "auto" else { return try plan(requested: request.model, scenario: scenario, scope: scope) }
        return try autoPlan(for: request, hint: hint, scenario: scenario, scope: scope)
    }

    /// `auto`: pick the tier, then resolve it. When the scored tier is outside what the scenario
    /// and token allow but the other tier is inside, the other tier is used (and the route says so);
    /// a tier forced by the header is never swapped.
    func autoPlan(for request: ChatRequest, hint: RouteTier?, scenario: GatewayConfig.ScenarioConfig,
                  scope: AccessScope, explain: Bool = false) throws(GatewayError) -> RoutePlan {
        let requested = request.model
        let fallback = config.autoDefault(for: scenario)
        let lean = ModelTier(rawValue: fallback).flatMap { RouteTier(rawValue: $0.rawValue) }
        if fallback != "auto" && lean == nil {
            // The scenario names a model or an alias: it opted out of tier routing.
            var p = try plan(requested: fallback, scenario: scenario, scope: scope)
            p.requested = requested
            p.explanation = "\(requested.isEmpty ? "no model" : "auto") → scenario default \(fallback); " + p.explanation
            p.route = "tier=none; by=scenario"
            return p
        }
        let decision = router.decide(request, hint: hint, scenarioLean: lean, explain: explain)
        var p: RoutePlan
        var route = decision.headerValue()
        do throws(GatewayError) {
            p = try plan(requested: decision.tier.rawValue, scenario: scenario, scope: scope)
        } catch where decision.source == .score && error.status == 403 {
            guard let other = try? plan(requested: decision.tier.other.rawValue, scenario: scenario, scope: scope) else { throw error }
            p = other
            route += "; adjusted=\(decision.tier.rawValue)-not-allowed"
        }
        p.requested = requested
        p.explanation = "\(requested.isEmpty ? "no model" : "auto") → \(route); " + p.explanation
        p.route = route
        p.decision = decision
        return p
    }
}
