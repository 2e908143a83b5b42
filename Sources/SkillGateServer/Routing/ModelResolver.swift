import SkillGateCore
import SkillGateProviders

/// Turns the model a client asked for into a `RoutePlan`, within the scenario's and the token's scope.
///
/// Accepts `auto` (or nothing), a tier (`light`, `strong`), an alias from config, `provider/model`,
/// or a bare model id that exactly one enabled provider offers.
public struct ModelResolver: Sendable {
    public let config: GatewayConfig
    public let catalog: ProviderCatalog

    public init(config: GatewayConfig, catalog: ProviderCatalog) {
        self.config = config
        self.catalog = catalog
    }

    /// The scenario a request runs in: the header's, else the token's default, else the gateway's.
    public func scenario(named requested: String?, scope: AccessScope) throws(GatewayError) -> (name: String, config: GatewayConfig.ScenarioConfig) {
        let name = requested ?? scope.defaultScenario ?? config.defaultScenario
        guard let s = config.scenarios[name] else {
            throw GatewayError(domain: .caller, kind: .notFound, status: 404,
                               message: "unknown scenario \"\(name)\"; configured scenarios: \(config.scenarios.keys.sorted().joined(separator: ", "))",
                               param: "x-skillgate-scenario")
        }
        if !scope.scenarios.isEmpty, !scope.scenarios.contains(name) {
            throw GatewayError(domain: .policy, kind: .permission, status: 403,
                               message: "this token may not use scenario \"\(name)\"; it is scoped to: \(scope.scenarios.joined(separator: ", "))",
                               param: "x-skillgate-scenario")
        }
        return (name, s)
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
        let targets = try expand(name, explanation: &explanation, depth: 0)
        let allowed = targets.filter { t in
            permitted(t, requested: name, by: scenario.allowedModels) && permitted(t, requested: name, by: scope.models)
        }
        guard !allowed.isEmpty else {
            throw GatewayError(domain: .policy, kind: .permission, status: 403,
                               message: "model \"\(name)\" is outside what this token and scenario may use; GET /v1/models lists the allowed models",
                               param: "model")
        }
        return RoutePlan(requested: requested ?? "", targets: allowed, explanation: explanation.joined(separator: "; "),
                         route: ModelTier(rawValue: name).map { "tier=\($0.rawValue); by=request" } ?? "tier=none; by=request")
    }

    private func expand(_ name: String, explanation: inout [String], depth: Int) throws(GatewayError) -> [RouteTarget] {
        if let tier = ModelTier(rawValue: name) {
            let refs = config.tiers[tier] ?? []
            var out: [RouteTarget] = []
            for ref in refs {
                var ignored: [String] = []
                if let targets = try? expand(ref, explanation: &ignored, depth: depth + 1) { out += targets }
            }
            guard !out.isEmpty else {
                throw GatewayError(domain: .gateway, kind: .notFound, status: 404,
                                   message: "tier \"\(name)\" has no usable models; add provider/model entries under \"tiers.\(name)\" in \(config.sourceFile)",
                                   param: "model")
            }
            explanation.append("tier \(name)")
            return out
        }
        if depth < 4, let target = config.aliases[name] {
            explanation.append("alias \(name) → \(target)")
            return try expand(target, explanation: &explanation, depth: depth + 1)
        }
        if let (p, m) = catalog.resolve(name) {
            try ensureEnabled(p)
            guard m.isChat else {
                throw GatewayError(domain: .caller, kind: .invalidRequest, status: 400,
                                   message: "model \"\(name)\" is an embedding model and cannot answer chats; send a chat model (GET /v1/models lists them) or a tier: light, strong",
                                   param: "model")
            }
            return [RouteTarget(provider: p, model: m)]
        }
        let matches = catalog.providers.filter(isEnabled).compactMap { p in p.model(name).flatMap { $0.isChat ? RouteTarget(provider: p, model: $0) : nil } }
        if matches.count == 1 {
            explanation.append("model \(name) → \(matches[0].qualifiedName)")
            return matches
        }
        if matches.count > 1 {
            throw GatewayError(domain: .caller, kind: .invalidRequest, status: 400,
                               message: "model \"\(name)\" is offered by several providers; send one of: \(matches.map(\.qualifiedName).joined(separator: ", "))",
                               param: "model")
        }
        throw GatewayError(domain: .caller, kind: .notFound, status: 404,
                           message: "model \"\(name)\" is not known to this gateway; GET /v1/models lists the models you may use (or send a tier: light, strong)",
                           param: "model")
    }

    private func isEnabled(_ p: ProviderSpec) -> Bool { config.providerOverrides[p.id]?.enabled ?? true }

    private func ensureEnabled(_ p: ProviderSpec) throws(GatewayError) {
        guard isEnabled(p) else {
            throw GatewayError(domain: .policy, kind: .notFound, status: 404,
                               message: "provider \"\(p.id)\" is disabled in the gateway config; ask the operator to enable it or use another model",
                               param: "model")
        }
    }

    /// Whether `target` (reached by asking for `requested`) is inside an allow-list of tiers,
    /// aliases and `provider/model`s. An empty list allows everything.
    private func permitted(_ target: RouteTarget, requested: String, by list: [String]) -> Bool {
        if list.isEmpty || list.contains(requested) || list.contains(target.qualifiedName) { return true }
        for entry in list {
            var ignored: [String] = []
            if let expanded = try? expand(entry, explanation: &ignored, depth: 0),
               expanded.contains(where: { $0.qualifiedName == target.qualifiedName }) { return true }
        }
        return false
    }

    /// Every target the scope and scenario allow, for `/v1/models`.
    public func visibleModels(scenario: GatewayConfig.ScenarioConfig, scope: AccessScope) -> [RouteTarget] {
        catalog.providers.filter(isEnabled).flatMap { p in p.chatModels.map { RouteTarget(provider: p, model: $0) } }.filter { t in
            permitted(t, requested: t.qualifiedName, by: scenario.allowedModels) && permitted(t, requested: t.qualifiedName, by: scope.models)
        }
    }
}
