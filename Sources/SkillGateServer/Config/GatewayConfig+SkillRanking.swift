import SkillGateCore
import SkillGateProviders

extension GatewayConfig {
    /// The `skill_ranking` section: how skills are ranked when a scenario shows only
    /// `max_visible_skills` of them. Without it: BM25 fused with the built-in word vectors.
    ///
    /// ```json
    /// "skill_ranking": {"embeddings": {"model": "local-e5/multilingual-e5-small", "timeout_ms": 300}}
    /// "skill_ranking": {"word_vectors": false}
    /// "skill_ranking": {"selector": {"model": "light", "candidates": 15, "timeout_ms": 2000}}
    /// "skill_ranking": {"embeddings": {...}, "examples": {"model": "light"}}
    /// ```
    public struct SkillRanking: Sendable, Hashable {
        /// Semantic ranking with an embedding model, fused with BM25; `nil` = no embedding model.
        public var embeddings: Embeddings?
        /// Whether the built-in word vectors are fused with BM25 when there is no embedding model or it
        /// fails (`word_vectors`, default `true`; `false` = BM25 alone there).
        public var wordVectors: Bool
        /// A chat model that picks the visible skills from the ranking's top candidates; `nil` = the
        /// ranking alone decides.
        public var selector: Selector?
        /// A chat model that writes example requests for each skill, compared with a request through the
        /// embedding model (needs `embeddings`); `nil` = skills are compared by their descriptions only.
        public var examples: Examples?

        public init(embeddings: Embeddings? = nil, wordVectors: Bool = true, selector: Selector? = nil, examples: Examples? = nil) {
            self.embeddings = embeddings
            self.wordVectors = wordVectors
            self.selector = selector
            self.examples = examples
        }
    }

    /// `skill_ranking.examples`: a chat model writes example requests (six English, six Chinese) for each
    /// skill once, in the background, when the skill is first seen; they are kept in the state store by
    /// a hash of the model and the skill's text. Once every candidate of a cut has examples, the
    /// request's similarity to them is blended into the semantic score (decision 0045).
    public struct Examples: Sendable, Hashable {
        /// A model reference as a request's `model` takes it (a tier, an alias, `provider/model`); `light`
        /// by default. Its targets are tried in order.
        public var model: String
        /// How long one skill's examples may take to write. Default 120000 ms: no request waits for it.
        public var timeoutMs: Int
        /// The examples' share of the semantic score (the descriptions' is the rest). Default 0.5.
        public var weight: Double
        /// The most skills whose examples are written in any hour (default 600). Clients declare tools, so this
        /// bounds what the gateway spends on a client that sends ever-new descriptions; past it, writing waits.
        public var maxPerHour: Int

        public init(model: String = "light", timeoutMs: Int = 120_000, weight: Double = 0.5, maxPerHour: Int = 600) {
            self.model = model
            self.timeoutMs = timeoutMs
            self.weight = weight
            self.maxPerHour = maxPerHour
        }
    }

    /// `skill_ranking.selector`: after ranking, one short call to a chat model chooses the skills to
    /// show from the top `candidates` (decision 0043). On a timeout, an error or an answer that is
    /// not the asked-for JSON, the ranking's own cut stands.
    public struct Selector: Sendable, Hashable {
        /// A model reference as a request's `model` takes it: a tier (`light`, the default), an alias,
        /// `provider/model` or a bare model id. Its targets are tried in order within the timeout.
        public var model: String
        /// How many of the best-ranked skills the model chooses from. Default 15.
        public var candidates: Int
        /// How long a request waits for the choice before the ranking's cut is used. Default 2000 ms.
        public var timeoutMs: Int

        public init(model: String = "light", candidates: Int = 15, timeoutMs: Int = 2000) {
            self.model = model
            self.candidates = candidates
            self.timeoutMs = timeoutMs
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
        /// How many vectors (descriptions, and example requests: a dozen per skill) are kept in memory; past it the
        /// cache starts over and vectors are read back from the state store. Default 4096 (~1.5 KB each at 384
        /// dimensions, ~6 MB): about 300 skills with examples, or 4,000 without.
        public var cacheVectors: Int

        public init(model: String, timeoutMs: Int = 300, queryPrefix: String? = nil, documentPrefix: String? = nil, cacheVectors: Int = 4096) {
            self.model = model
            self.timeoutMs = timeoutMs
            self.queryPrefix = queryPrefix
            self.documentPrefix = documentPrefix
            self.cacheVectors = cacheVectors
        }
    }

    /// Reads the `skill_ranking` object (`nil` = lexical ranking).
    static func parseSkillRanking(_ r: JSONReader?) throws(JSONShapeError) -> SkillRanking {
        guard let r else { return SkillRanking() }
        try r.rejectUnknownKeys(["embeddings", "word_vectors", "selector", "examples", "$comment"])
        let wordVectors = try r.optionalBool("word_vectors") ?? true
        let selector = try parseSelector(try r.optionalObject("selector"))
        let examples = try parseExamples(try r.optionalObject("examples"))
        guard let e = try r.optionalObject("embeddings") else {
            if examples != nil {
                throw r.error("examples", "needs \"embeddings\": example requests are compared with a request through an embedding model; add skill_ranking.embeddings or remove examples")
            }
            return SkillRanking(wordVectors: wordVectors, selector: selector)
        }
        try e.rejectUnknownKeys(["model", "timeout_ms", "query_prefix", "document_prefix", "cache_vectors", "$comment"])
        let model = try e.string("model")
        guard let slash = model.firstIndex(of: "/"), slash != model.startIndex, model.index(after: slash) != model.endIndex else {
            throw e.error("model", "expected provider/model of an embedding model in the catalog (e.g. \"local-e5/multilingual-e5-small\"), got \"\(model)\"")
        }
        let timeout = try e.optionalInt("timeout_ms") ?? 300
        guard (1...60_000).contains(timeout) else {
            throw e.error("timeout_ms", "must be between 1 and 60000 milliseconds (how long a request waits for embeddings before ranking lexically)")
        }
        let cacheVectors = try e.optionalInt("cache_vectors") ?? 4096
        guard (64...1_048_576).contains(cacheVectors) else {
            throw e.error("cache_vectors", "must be between 64 and 1048576 (how many skill and example vectors are kept in memory; ~1.5 KB each at 384 dimensions)")
        }
        return SkillRanking(embeddings: Embeddings(model: model, timeoutMs: timeout, queryPrefix: try e.optionalString("query_prefix"),
                                                   documentPrefix: try e.optionalString("document_prefix"), cacheVectors: cacheVectors),
                            wordVectors: wordVectors, selector: selector, examples: examples)
    }

    /// Reads `skill_ranking.examples` (`nil` when absent).
    private static func parseExamples(_ r: JSONReader?) throws(JSONShapeError) -> Examples? {
        guard let r else { return nil }
        try r.rejectUnknownKeys(["model", "timeout_ms", "weight", "max_per_hour", "$comment"])
        let defaults = Examples()
        let model = try r.optionalString("model") ?? defaults.model
        guard !model.trimmingSpacesAndTabs().isEmpty, model != "auto" else {
            throw r.error("model", "must name a chat model: a tier (\"light\"), an alias or provider/model (not \"auto\")")
        }
        let timeout = try r.optionalInt("timeout_ms") ?? defaults.timeoutMs
        guard (1...600_000).contains(timeout) else {
            throw r.error("timeout_ms", "must be between 1 and 600000 milliseconds (how long one skill's examples may take to write)")
        }
        let weight = try r.optionalDouble("weight") ?? defaults.weight
        guard (0...1).contains(weight) else {
            throw r.error("weight", "must be between 0 and 1 (the examples' share of the semantic score)")
        }
        let perHour = try r.optionalInt("max_per_hour") ?? defaults.maxPerHour
        guard (1...100_000).contains(perHour) else {
            throw r.error("max_per_hour", "must be between 1 and 100000 (the most skills whose examples are written in an hour)")
        }
        return Examples(model: model, timeoutMs: timeout, weight: weight, maxPerHour: perHour)
    }

    /// Reads `skill_ranking.selector` (`nil` when absent).
    private static func parseSelector(_ r: JSONReader?) throws(JSONShapeError) -> Selector? {
        guard let r else { return nil }
        try r.rejectUnknownKeys(["model", "candidates", "timeout_ms", "$comment"])
        let defaults = Selector()
        let model = try r.optionalString("model") ?? defaults.model
        guard !model.trimmingSpacesAndTabs().isEmpty else {
            throw r.error("model", "must name a chat model: a tier (\"light\"), an alias or provider/model")
        }
        let candidates = try r.optionalInt("candidates") ?? defaults.candidates
        guard (2...100).contains(candidates) else {
            throw r.error("candidates", "must be between 2 and 100 (how many of the best-ranked skills the selector model chooses from)")
        }
        let timeout = try r.optionalInt("timeout_ms") ?? defaults.timeoutMs
        guard (1...60_000).contains(timeout) else {
            throw r.error("timeout_ms", "must be between 1 and 60000 milliseconds (how long a request waits for the selector before using the ranking's cut)")
        }
        return Selector(model: model, candidates: candidates, timeoutMs: timeout)
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
