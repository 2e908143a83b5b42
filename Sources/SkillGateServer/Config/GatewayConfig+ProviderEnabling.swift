import SkillGateProviders

extension GatewayConfig {
    /// Whether requests may be routed to `provider`. A `providers.<id>` entry decides when there is one (`enabled`,
    /// true unless set false). Otherwise a provider that needs a key is enabled (it answers nothing until its key is
    /// set), and so is the built-in demo model; a keyless provider on the network (Ollama, vLLM, a local model
    /// server: `auth: none`) only when the config names one of its models somewhere (a tier, an alias, a default or
    /// allowed model, `skill_ranking`, `resilience.weights`). Before, any token could name such a model and have the
    /// gateway post its request to a fixed port on the gateway's own machine, where some other service may listen
    /// (decision 0092).
    public func isEnabled(_ provider: ProviderSpec) -> Bool {
        if let override = providerOverrides[provider.id] { return override.enabled }
        guard provider.auth == .none, provider.wireFormat != .demo else { return true }
        return modelReferences.contains { reference in
            reference.hasPrefix(provider.id + "/") || provider.models.contains { $0.id == reference }
        }
    }

    /// Every model the config names, as written (tier entries, alias targets, the default and each scenario's
    /// default and allowed models, `resilience.weights`, and `skill_ranking`'s selector, examples and embeddings).
    var modelReferences: [String] {
        var references = Array(aliases.values) + [defaultModel] + Array(resilience.weights.keys)
        for entries in tiers.values { references += entries }
        for scenario in scenarios.values {
            if let model = scenario.defaultModel { references.append(model) }
            references += scenario.allowedModels
        }
        if let model = skillRanking.selector?.model { references.append(model) }
        if let model = skillRanking.examples?.model { references.append(model) }
        if let model = skillRanking.embeddings?.model { references.append(model) }
        return references
    }
}
