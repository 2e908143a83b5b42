import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateProviders
import SkillGateSkills

/// Builds the `TextEmbedder` of `skill_ranking.embeddings` from the catalog (endpoint, auth, wire
/// format, prefixes, dimensions), the provider overrides of the config and the key store.
enum EmbedderFactory {
    /// Timeouts of one embedding call. A request never waits longer than `timeout_ms` for it; these
    /// bound a document batch that goes on in the background after a request stopped waiting.
    static let timeouts = HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(30), idle: .seconds(30), total: .seconds(60))

    /// - Precondition: `config.validateSkillRanking(against: catalog)` passed.
    static func embedder(for settings: GatewayConfig.Embeddings, config: GatewayConfig, catalog: ProviderCatalog,
                         keys: KeyStore, http: HTTPClient) throws -> any TextEmbedder {
        guard let (provider, model) = catalog.resolve(settings.model) else {
            throw JSONShapeError(file: config.sourceFile, path: "$.skill_ranking.embeddings.model", message: "\"\(settings.model)\" is not in the catalog")
        }
        let override = config.providerOverrides[provider.id]
        let keyName = override?.keyName ?? provider.keyName
        var inputs = model.embeddingInputs
        if let p = settings.queryPrefix { inputs.queryPrefix = p.isEmpty ? nil : p }
        if let p = settings.documentPrefix { inputs.documentPrefix = p.isEmpty ? nil : p }
        let connect = min(Duration.seconds(config.upstreamTimeouts.connectSeconds), timeouts.connect ?? .seconds(5))
        var t = timeouts
        t.connect = connect
        var deployment = Deployment(providerId: provider.id, model: model.id, baseURL: override?.baseURL ?? provider.baseURL,
                                    auth: provider.auth, extraHeaders: provider.headers, timeouts: t)
        deployment.httpVersion = provider.httpVersion
        deployment.caFile = override?.caFile
        var endpoint = EmbeddingEndpoint(deployment: deployment, keyName: keyName,
                                         key: { keyName.flatMap { keys.secret(named: $0) } },
                                         inputs: inputs, dimensions: model.dimensions, http: http)
        endpoint.reuseConnections = provider.reuseConnections
        switch provider.wireFormat {
        case .gemini: return GeminiEmbedder(endpoint: endpoint)
        default: return OpenAIEmbedder(endpoint: endpoint)
        }
    }
}
