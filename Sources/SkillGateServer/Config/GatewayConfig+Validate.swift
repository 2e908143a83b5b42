import SkillGateCore
import SkillGateProviders

extension GatewayConfig {
    /// Checks every model reference (tiers, aliases, defaults, scenarios, `skill_ranking`) against
    /// the catalog, so a typo fails at `config check` and at start, never at the first request.
    /// Embedding models are refused wherever a chat model is expected.
    public func validate(against catalog: ProviderCatalog) throws(JSONShapeError) {
        func chatOnly(_ ref: String, at path: String) throws(JSONShapeError) {
            guard let (_, model) = catalog.resolve(ref), !model.isChat else { return }
            throw JSONShapeError(file: sourceFile, path: path,
                                 message: "\"\(ref)\" is an embedding model and cannot answer chats; name a chat model here (embedding models go under \"skill_ranking.embeddings.model\")")
        }
        func check(_ ref: String, at path: String) throws(JSONShapeError) {
            if ref == "auto" || ModelTier(rawValue: ref) != nil || aliases[ref] != nil { return }
            try chatOnly(ref, at: path)
            guard catalog.resolve(ref) != nil else {
                throw JSONShapeError(file: sourceFile, path: path,
                                     message: "\"\(ref)\" is not a tier, an alias or a provider/model in the catalog (\(providersDirectory)); run `skillgate providers` to list them")
            }
            if let pid = ref.split(separator: "/").first, providerOverrides[String(pid)]?.enabled == false {
                throw JSONShapeError(file: sourceFile, path: path, message: "\"\(ref)\" belongs to provider \"\(pid)\", which is disabled in \"providers\"")
            }
        }
        for (id, _) in providerOverrides where catalog.provider(id) == nil {
            throw JSONShapeError(file: sourceFile, path: "$.providers.\(id)",
                                 message: "no provider \"\(id)\" in the catalog (\(providersDirectory)); add Providers/\(id).json or fix the name")
        }
        for (name, target) in aliases {
            guard catalog.resolve(target) != nil else {
                throw JSONShapeError(file: sourceFile, path: "$.aliases.\(name)", message: "\"\(target)\" is not a provider/model in the catalog")
            }
            try chatOnly(target, at: "$.aliases.\(name)")
        }
        for tier in ModelTier.allCases {
            for (i, ref) in (tiers[tier] ?? []).enumerated() {
                guard catalog.resolve(ref) != nil || aliases[ref] != nil else {
                    throw JSONShapeError(file: sourceFile, path: "$.tiers.\(tier.rawValue)[\(i)]",
                                         message: "\"\(ref)\" is not a provider/model in the catalog or an alias; run `skillgate providers` to list models")
                }
                try chatOnly(ref, at: "$.tiers.\(tier.rawValue)[\(i)]")
            }
        }
        try check(defaultModel, at: "$.default_model")
        for (name, s) in scenarios {
            if let d = s.defaultModel { try check(d, at: "$.scenarios.\(name).default_model") }
            for (i, m) in s.allowedModels.enumerated() { try check(m, at: "$.scenarios.\(name).allowed_models[\(i)]") }
        }
        for name in resilience.weights.keys.sorted() { try chatOnly(name, at: "$.resilience.weights.\(name)") }
        try validateResilience(against: catalog)
        if let selector = skillRanking.selector {
            guard selector.model != "auto" else {
                throw JSONShapeError(file: sourceFile, path: "$.skill_ranking.selector.model",
                                     message: "\"auto\" would route the selector's own call; name a tier (\"light\"), an alias or a provider/model")
            }
            try check(selector.model, at: "$.skill_ranking.selector.model")
            _ = try selectorTargets(selector, catalog: catalog)
        }
        if let examples = skillRanking.examples {
            try check(examples.model, at: "$.skill_ranking.examples.model")
            _ = try modelTargets(examples.model, at: "$.skill_ranking.examples.model", role: "the examples' writer", catalog: catalog)
        }
        try validateSkillRanking(against: catalog)
    }

    /// What `skill_ranking.selector.model` resolves to, in order of preference (decision 0043): checked at load and
    /// resolved once by the ranker that calls it.
    func selectorTargets(_ selector: Selector, catalog: ProviderCatalog) throws(JSONShapeError) -> [RouteTarget] {
        try modelTargets(selector.model, at: "$.skill_ranking.selector.model", role: "the selector's model", catalog: catalog)
    }

    /// What a model reference of `skill_ranking` resolves to, in order of preference.
    func modelTargets(_ model: String, at path: String, role: String, catalog: ProviderCatalog) throws(JSONShapeError) -> [RouteTarget] {
        do {
            return try RoutingTable(config: self, catalog: catalog).resolve(model).targets
        } catch {
            throw JSONShapeError(file: sourceFile, path: path, message: "\(error.message) (\(role))")
        }
    }
}

extension GatewayConfig {
    /// Why `ref` cannot be an entry of a token's model scope (`tokens create --model`, the admin API's `models`), or nil
    /// when it names models the scope can allow: a tier, an alias, or a chat model of the catalog (`provider/model` or a
    /// bare id). A typo would otherwise make a token that every request refuses with a 403.
    public func unknownModelScopeEntry(_ ref: String, catalog: ProviderCatalog) -> String? {
        if ModelTier(rawValue: ref) != nil || aliases[ref] != nil || catalog.resolve(ref) != nil { return nil }
        // A bare model id some provider offers, as requests may name it.
        if catalog.providers.contains(where: { p in p.models.contains { $0.id == ref && $0.isChat } }) { return nil }
        let tiers = ModelTier.allCases.map(\.rawValue).joined(separator: ", ")
        let aliasNames = aliases.keys.sorted().prefix(20).joined(separator: ", ")
        return "unknown model \"\(ref.prefix(128))\" for a token's scope: give a tier (\(tiers))\(aliasNames.isEmpty ? "" : ", an alias (\(aliasNames))") or a provider/model of the catalog (`skillgate providers` lists them)"
    }
}
