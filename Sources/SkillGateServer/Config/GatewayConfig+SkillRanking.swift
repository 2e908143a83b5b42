import SkillGateCore
import SkillGateProviders

extension GatewayConfig {
    /// The `skill_ranking` section: how skills are ranked when a scenario shows only
    /// `max_visible_skills` of them. Without it: BM25 fused with the built-in word vectors.
    ///
    /// ```json
    /// "skill_ranking": {"embeddings": {"model": "local-e5/multilingual-e5-small", "timeout_ms": 300}}
    /// "skill_ranking": {"word_vectors": false}
    /// ```
    public struct SkillRanking: Sendable, Hashable {
        /// Semantic ranking with an embedding model, fused with BM25; `nil` = no embedding model.
        public var embeddings: Embeddings?
        /// Whether the built-in word vectors are fused with BM25 when there is no embedding model or it
        /// fails (`word_vectors`, default `true`; `false` = BM25 alone there).
        public var wordVectors: Bool

        public init(embeddings: Embeddings? = nil, wordVectors: Bool = true) {
            self.embeddings = embeddings
            self.wordVectors = wordVectors
        }
    }

    /// `skill_ranking.embeddings`.
    public struct Embeddings: Sendable, Hashable {
        /// `provider/model` of a catalog model with `"kind": "embedding"`.
        public var model: String
        /// How long a request waits for similarities (its query and any new skill descriptions)
        /// before it ranks lexically. Default 300 ms.
        public var timeoutMs: Int
        /// Replace the catalog model's `query_prefix` / `document_prefix` (`""` = none).
        public var queryPrefix: String?
        public var documentPrefix: String?

        public init(model: String, timeoutMs: Int = 300, queryPrefix: String? = nil, documentPrefix: String? = nil) {
            self.model = model
            self.timeoutMs = timeoutMs
            self.queryPrefix = queryPrefix
            self.documentPrefix = documentPrefix
        }
    }

    /// Reads the `skill_ranking` object (`nil` = lexical ranking).
    static func parseSkillRanking(_ r: JSONReader?) throws(JSONShapeError) -> SkillRanking {
        guard let r else { return SkillRanking() }
        try r.rejectUnknownKeys(["embeddings", "word_vectors", "$comment"])
        let wordVectors = try r.optionalBool("word_vectors") ?? true
        guard let e = try r.optionalObject("embeddings") else { return SkillRanking(wordVectors: wordVectors) }
        try e.rejectUnknownKeys(["model", "timeout_ms", "query_prefix", "document_prefix", "$comment"])
        let model = try e.string("model")
        guard let slash = model.firstIndex(of: "/"), slash != model.startIndex, model.index(after: slash) != model.endIndex else {
            throw e.error("model", "expected provider/model of an embedding model in the catalog (e.g. \"local-e5/multilingual-e5-small\"), got \"\(model)\"")
        }
        let timeout = try e.optionalInt("timeout_ms") ?? 300
        guard (1...60_000).contains(timeout) else {
            throw e.error("timeout_ms", "must be between 1 and 60000 milliseconds (how long a request waits for embeddings before ranking lexically)")
        }
        return SkillRanking(embeddings: Embeddings(model: model, timeoutMs: timeout, queryPrefix: try e.optionalString("query_prefix"),
                                                   documentPrefix: try e.optionalString("document_prefix")),
                            wordVectors: wordVectors)
    }

    /// Checks `skill_ranking.embeddings.model` against the catalog: a known, enabled provider
    /// whose wire format has an embeddings endpoint, and a model of it marked `"kind": "embedding"`.
    func validateSkillRanking(against catalog: ProviderCatalog) throws(JSONShapeError) {
        guard let e = skillRanking.embeddings else { return }
        let path = "$.skill_ranking.embeddings.model"
        func fail(_ message: String) -> JSONShapeError { JSONShapeError(file: sourceFile, path: path, message: message) }
        let slash = e.model.firstIndex(of: "/")!
        let pid = String(e.model[..<slash]), mid = String(e.model[e.model.index(after: slash)...])
        let embeddingModels = catalog.providers.filter { $0.wireFormat.hasEmbeddings }
            .flatMap { p in p.models.filter { $0.kind == .embedding }.map { "\(p.id)/\($0.id)" } }
        let known = embeddingModels.isEmpty ? "the catalog has none" : "the catalog has: " + embeddingModels.joined(separator: ", ")
        guard let provider = catalog.provider(pid) else {
            throw fail("no provider \"\(pid)\" in the catalog (\(providersDirectory)); name an embedding model (\(known)) or add Providers/\(pid).json")
        }
        guard provider.wireFormat.hasEmbeddings else {
            throw fail("provider \"\(pid)\" speaks \"\(provider.wireFormat.rawValue)\", which has no embeddings endpoint; use an \"openai-chat\" or \"gemini\" provider's embedding model (\(known))")
        }
        if providerOverrides[pid]?.enabled == false {
            throw fail("\"\(e.model)\" belongs to provider \"\(pid)\", which is disabled in \"providers\"; enable it or pick another embedding model")
        }
        guard let model = provider.model(mid) else {
            throw fail("provider \"\(pid)\" has no model \"\(mid)\"; \(known) (a catalog model with \"kind\": \"embedding\")")
        }
        guard model.kind == .embedding else {
            throw fail("\"\(e.model)\" is a chat model; name an embedding model, a catalog model with \"kind\": \"embedding\" (\(known))")
        }
    }
}
