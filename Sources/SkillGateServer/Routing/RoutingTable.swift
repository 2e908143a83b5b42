import SkillGateCore
import SkillGateProviders

/// Every model name a request or an allow-list may use, resolved once when the config loads:
/// tiers, aliases, `provider/model`s and bare model ids to their route targets, with the
/// explanation a plan carries, or the error asking for them gives. The request path only looks
/// names up.
struct RoutingTable: Sendable {
    /// What a name resolves to.
    enum Resolution: Sendable {
        case targets([RouteTarget], explanation: [String])
        case refused(GatewayError)
    }

    private let names: [String: Resolution]
    /// Name → the qualified names (`provider/model`) it stands for, for allow-lists.
    private let qualified: [String: Set<String>]

    init(config: GatewayConfig, catalog: ProviderCatalog) {
        var names: [String: Resolution] = [:]
        let enabled = { (p: ProviderSpec) in config.isEnabled(p) }
        // provider/model
        for p in catalog.providers {
            let served = enabled(p)
            for m in p.models {
                let name = p.id + "/" + m.id
                // An embedding model never answers a chat, whether or not its provider is served: that is said first.
                if !m.isChat {
                    names[name] = .refused(GatewayError(domain: .caller, kind: .invalidRequest, status: 400,
                                                        message: "model \"\(name)\" is an embedding model and cannot answer chats; send a chat model (GET /v1/models lists them) or a tier: light, strong",
                                                        param: "model"))
                } else if !served {
                    names[name] = .refused(GatewayError(domain: .policy, kind: .notFound, status: 404,
                                                        message: Self.disabledMessage(p, config),
                                                        param: "model"))
                } else {
                    names[name] = .targets([RouteTarget(provider: p, model: m)], explanation: [])
                }
            }
        }
        // Bare model ids that enabled providers offer (unique, or ambiguous).
        var bare: [String: [RouteTarget]] = [:]
        for p in catalog.providers where enabled(p) {
            for m in p.models where m.isChat { bare[m.id, default: []].append(RouteTarget(provider: p, model: m)) }
        }
        for (id, targets) in bare where names[id] == nil {
            names[id] = targets.count == 1
                ? .targets(targets, explanation: ["model \(id) → \(targets[0].qualifiedName)"])
                : .refused(GatewayError(domain: .caller, kind: .invalidRequest, status: 400,
                                        message: "model \"\(id)\" is offered by several providers; send one of: \(targets.map(\.qualifiedName).joined(separator: ", "))",
                                        param: "model"))
        }
        // A bare embedding model id is refused as one (400, naming it), not as an unknown model (404).
        for p in catalog.providers {
            for m in p.models where !m.isChat && names[m.id] == nil && bare[m.id] == nil {
                names[m.id] = .refused(GatewayError(domain: .caller, kind: .invalidRequest, status: 400,
                                                    message: "model \"\(m.id)\" (\(p.id)/\(m.id)) is an embedding model and cannot answer chats; send a chat model (GET /v1/models lists them) or a tier: light, strong",
                                                    param: "model"))
            }
        }
        // Aliases (to models, or to other aliases), then tiers (of any of the above).
        func follow(_ name: String, depth: Int) -> Resolution? {
            if let alias = config.aliases[name], depth < 4, ModelTier(rawValue: name) == nil {
                guard let r = follow(alias, depth: depth + 1) else { return nil }
                if case .targets(let t, let e) = r { return .targets(t, explanation: ["alias \(name) → \(alias)"] + e) }
                return r
            }
            return names[name]
        }
        for alias in config.aliases.keys where ModelTier(rawValue: alias) == nil {
            if let r = follow(alias, depth: 0) { names[alias] = r }
        }
        for tier in ModelTier.allCases {
            var out: [RouteTarget] = []
            for ref in config.tiers[tier] ?? [] {
                if case .targets(let t, _)? = follow(ref, depth: 1) { out += t }
            }
            names[tier.rawValue] = out.isEmpty
                ? .refused(GatewayError(domain: .gateway, kind: .notFound, status: 404,
                                        message: "tier \"\(tier.rawValue)\" has no usable models; add provider/model entries under \"tiers.\(tier.rawValue)\" in \(config.sourceFile)",
                                        param: "model"))
                : .targets(out, explanation: ["tier \(tier.rawValue)"])
        }
        self.names = names
        var qualified: [String: Set<String>] = [:]
        for (name, r) in names { if case .targets(let t, _) = r { qualified[name] = Set(t.map(\.qualifiedName)) } }
        self.qualified = qualified
    }

    /// Why a model of `provider` is not served: disabled in `providers`, or a keyless provider the config never named
    /// (`GatewayConfig.isEnabled`).
    static func disabledMessage(_ provider: ProviderSpec, _ config: GatewayConfig) -> String {
        if config.providerOverrides[provider.id] != nil {
            return "provider \"\(provider.id)\" is disabled in the gateway config; ask the operator to enable it or use another model"
        }
        return "provider \"\(provider.id)\" needs no key and runs on the operator's network, so the gateway serves it only when the config names it; ask the operator to add \"providers\": {\"\(provider.id)\": {\"enabled\": true}} or use it in a tier or alias, or use another model"
    }

    /// The targets of `name`, with the explanation; a 404 for a name the gateway does not know.
    func resolve(_ name: String) throws(GatewayError) -> (targets: [RouteTarget], explanation: [String]) {
        switch names[name] {
        case .targets(let t, let e)?: return (t, e)
        case .refused(let error)?: throw error
        case nil:
            throw GatewayError(domain: .caller, kind: .notFound, status: 404,
                               message: "model \"\(name)\" is not known to this gateway; GET /v1/models lists the models you may use (or send a tier: light, strong)",
                               param: "model")
        }
    }

    /// Whether `target` (reached by asking for `requested`) is inside an allow-list of tiers,
    /// aliases and `provider/model`s. An empty list allows everything.
    func permits(_ list: [String], _ target: RouteTarget, requested: String) -> Bool {
        if list.isEmpty || list.contains(requested) { return true }
        let name = target.qualifiedName
        return list.contains { $0 == name || qualified[$0]?.contains(name) == true }
    }
}
