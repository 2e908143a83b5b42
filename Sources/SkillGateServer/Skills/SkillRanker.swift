import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateProviders
import SkillGateSkills
import SkillGateState

/// Ranks skills by relevance to a conversation and keeps the top `limit`: BM25, fused with the
/// similarities of an embedding model when `skill_ranking.embeddings` is configured, and otherwise
/// (or when that model fails) with those of the built-in word vectors (`skill_ranking.word_vectors`,
/// on by default; decision 0040). The one entry point for the gateway's skill policy and for offline
/// evaluation.
///
/// With embeddings, a ranking costs one query embedding (skill vectors are cached in memory and in
/// the state store) and never waits longer than `timeout_ms`: on a timeout or an error it ranks
/// with BM25 alone and says why (`SkillRanking.mode`). Nothing is embedded when nothing has to be
/// cut (`candidates.count <= limit`).
///
/// With `skill_ranking.selector`, a chat model then chooses from the ranking's best candidates in one
/// short call (`SkillSelector`); its choices take the slots first and the ranking fills the rest. On a
/// timeout or error the ranking's own cut stands.
public struct SkillRanker: Sendable {
    /// The embedding side; `nil` when ranking is lexical only.
    public let scorer: SemanticScorer?
    /// The built-in word vectors fused with BM25 when no embedding model answers; `nil`: BM25 alone.
    public let wordVectors: WordVectorScorer?
    /// How cuts were ranked since start.
    public let counters = SkillRankingCounters()
    /// Tokenised skill documents for BM25, across calls.
    let documents = SkillDocumentCache()
    /// The chat model that picks among the top candidates; `nil` = the ranking decides alone.
    let selector: SkillSelector?
    /// `skill_ranking.selector` when a selector model is asked; `nil` otherwise.
    public var selectorSettings: GatewayConfig.Selector? { selector?.settings }
    /// The writer of the skills' example requests (`skill_ranking.examples`); `nil` = descriptions only.
    let examples: SkillExampleWriter?

    /// A ranker for `config`: loads the provider catalog from `config.providersDirectory`, checks
    /// `skill_ranking` against it, and takes the embedding model's key from `keys` (as chat
    /// providers do). `stateStore` keeps skill vectors across restarts (`nil`: memory only).
    ///
    /// - Throws: `JSONShapeError` naming the config path when `skill_ranking` does not fit the catalog.
    public init(config: GatewayConfig, keys: KeyStore, stateStore: SQLiteStateStore?, http: HTTPClient) throws {
        try self.init(config: config, catalog: try ProviderCatalog.load(directory: config.providersDirectory),
                      keys: keys, stateStore: stateStore, http: http)
    }

    /// A ranker that keeps skill vectors in `stateStore` and the skills' example requests
    /// (`skill_ranking.examples`) in `examplesStore`: `skillgate eval skills` keeps vectors in memory
    /// only, and the examples, which take a chat call per skill, across runs.
    public init(config: GatewayConfig, keys: KeyStore, stateStore: SQLiteStateStore?, examplesStore: SQLiteStateStore?, http: HTTPClient) throws {
        try self.init(config: config, catalog: try ProviderCatalog.load(directory: config.providersDirectory),
                      keys: keys, stateStore: stateStore, http: http, clients: nil, examplesStore: examplesStore)
    }

    /// A ranker for `config` over an already loaded `catalog`.
    public init(config: GatewayConfig, catalog: ProviderCatalog, keys: KeyStore, stateStore: SQLiteStateStore?, http: HTTPClient) throws {
        try self.init(config: config, catalog: catalog, keys: keys, stateStore: stateStore, http: http, clients: nil, examplesStore: stateStore)
    }

    /// A ranker whose selector and examples writer (if configured) call their models through `clients`
    /// (the gateway's, so they share key pools); `nil` makes a factory of its own when one is needed.
    /// The examples are kept in `examplesStore`; what writing them spends and how it went goes to `examplesEvents`.
    init(config: GatewayConfig, catalog: ProviderCatalog, keys: KeyStore, stateStore: SQLiteStateStore?, http: HTTPClient,
         clients: ClientFactory?, examplesStore: SQLiteStateStore?, examplesEvents: SkillExampleWriter.EventSink? = nil) throws {
        try config.validateSkillRanking(against: catalog)
        let wordVectors = config.skillRanking.wordVectors ? WordVectorScorer.builtIn : nil
        let callsModels = config.skillRanking.selector != nil || config.skillRanking.examples != nil
        let factory = callsModels ? clients ?? ClientFactory(config: config, keys: keys, http: http) : nil
        let selector = try config.skillRanking.selector.map { settings in
            try Self.makeSelector(settings, config: config, catalog: catalog, clients: factory!)
        }
        guard let settings = config.skillRanking.embeddings else {
            self.init(scorer: nil, wordVectors: wordVectors, selector: selector)
            return
        }
        let embedder = try EmbedderFactory.embedder(for: settings, config: config, catalog: catalog, keys: keys, http: http)
        let cache = EmbeddingCache(capacity: settings.cacheVectors, store: stateStore.map { SQLiteEmbeddingStore(store: $0) })
        let examples = try config.skillRanking.examples.map { settings in
            SkillExampleWriter(settings: settings, targets: try config.modelTargets(settings.model, at: "$.skill_ranking.examples.model",
                                                                                     role: "the examples' writer", catalog: catalog),
                               store: examplesStore, events: examplesEvents, call: Self.chatCall(factory!))
        }
        self.init(scorer: SemanticScorer(embedder: embedder, cache: cache, timeout: .milliseconds(settings.timeoutMs)),
                  wordVectors: wordVectors, selector: selector, examples: examples)
    }

    /// A ranker over `scorer` (`nil`: no embedding model) and `wordVectors` (`nil`: BM25 alone when
    /// there is no embedding model or it fails).
    public init(scorer: SemanticScorer?, wordVectors: WordVectorScorer? = WordVectorScorer.builtIn) {
        self.init(scorer: scorer, wordVectors: wordVectors, selector: nil)
    }

    init(scorer: SemanticScorer?, wordVectors: WordVectorScorer?, selector: SkillSelector?, examples: SkillExampleWriter? = nil) {
        self.scorer = scorer
        self.wordVectors = wordVectors
        self.selector = selector
        self.examples = examples
    }

    /// The selector for `settings`: its model resolved once, each call through `clients`.
    private static func makeSelector(_ settings: GatewayConfig.Selector, config: GatewayConfig, catalog: ProviderCatalog,
                                     clients: ClientFactory) throws -> SkillSelector {
        SkillSelector(settings: settings, targets: try config.selectorTargets(settings, catalog: catalog), call: chatCall(clients))
    }

    /// One chat completion through `clients` (its key released after the call).
    private static func chatCall(_ clients: ClientFactory) -> @Sendable (RouteTarget, ChatRequest) async throws -> ChatResponse {
        { target, request in
            let upstream = try clients.client(for: target)
            defer { upstream.key?.release() }
            return try await upstream.llm.complete(request)
        }
    }

    /// Writes the example requests of every candidate that has none (`skill_ranking.examples`), embeds
    /// them, and returns when done (at once without examples configured): `(written, failed)` since
    /// start, and the embedding model's error if it failed.
    @discardableResult
    public func writeExamples(for candidates: [SkillCandidate]) async -> (written: Int, failed: Int, embedding: EmbeddingError?) {
        guard let examples, let scorer else { return (0, 0, nil) }
        await examples.writeAll(candidates)
        let counts = examples.counts
        guard let lists = examples.examples(for: candidates) else { return (counts.written, counts.failed, nil) }
        return (counts.written, counts.failed, await scorer.embedExamples(lists))
    }

    /// A ranker without an embedding model: BM25 fused with the built-in word vectors.
    public static var lexical: SkillRanker { SkillRanker(scorer: nil) }

    /// A ranker by BM25 alone (no embedding model, no word vectors).
    public static var bm25: SkillRanker { SkillRanker(scorer: nil, wordVectors: nil) }

    /// Keeps at most `limit` of `candidates` (every name in `pinned`, then the most relevant to the
    /// last user turns of `messages`), in the candidates' order. Asks the embedding model only when
    /// something has to be cut, and the selector model (if configured and `askSelector`) only when
    /// something has to be cut for a conversation with user text.
    public func select(_ candidates: [SkillCandidate], messages: [Message], limit: Int, pinned: Set<String>,
                       askSelector: Bool = true) async -> SkillRanking {
        var ranking = await rank(candidates, messages: messages, limit: limit, pinned: pinned)
        // Without a user turn there is nothing to choose for (MCP's tools/list ranks without a conversation).
        guard askSelector, let selector, candidates.count > limit,
              messages.contains(where: { $0.role == .user && !$0.text.isEmpty }) else { return ranking }
        let ranked = Self.rankedOrder(candidates, scores: ranking.cut.scores, excluding: pinned)
        let slots = limit - candidates.count(where: { pinned.contains($0.name) })
        guard slots > 0, ranked.count > slots else { return ranking }  // pinned skills alone fill the cut
        let offered = ranked.prefix(selector.settings.candidates).map { candidates[$0] }
        let selection = await selector.choose(from: offered, messages: messages, limit: slots)
        counters.count(selection)
        if !selection.chosen.isEmpty {
            ranking.cut = Self.merge(ranking.cut, candidates: candidates, ranked: ranked, pinned: pinned, slots: slots, chosen: selection.chosen)
        }
        ranking.selection = selection
        return ranking
    }

    /// The non-pinned candidates' indices, best score first (ties: declared first), as
    /// `SkillRelevance.select` orders them.
    static func rankedOrder(_ candidates: [SkillCandidate], scores: [String: Double], excluding pinned: Set<String>) -> [Int] {
        let score = candidates.map { scores[$0.name] ?? 0 }
        return candidates.indices.filter { !pinned.contains(candidates[$0].name) }
            .sorted { score[$0] != score[$1] ? score[$0] > score[$1] : $0 < $1 }
    }

    /// The cut with the selector's choices first: pinned skills, then `chosen` (in its order), then the
    /// best-ranked of the rest (`ranked`, without the pinned ones), `slots` of them in all. Kept names stay in
    /// declaration order; cut ones in ranking order. A cut the selector chose for is never blind.
    static func merge(_ cut: RelevanceCut, candidates: [SkillCandidate], ranked: [Int], pinned: Set<String>, slots: Int,
                      chosen: [String]) -> RelevanceCut {
        var keep = Set(chosen.filter { !pinned.contains($0) }.prefix(slots))
        for i in ranked where keep.count < slots { keep.insert(candidates[i].name) }
        keep.formUnion(pinned)
        var merged = cut
        merged.kept = candidates.map(\.name).filter { keep.contains($0) }
        merged.cut = ranked.map { candidates[$0].name }.filter { !keep.contains($0) }
        merged.blind = false
        return merged
    }

    /// The ranking's own cut (BM25 with embeddings or word vectors), before any selector.
    private func rank(_ candidates: [SkillCandidate], messages: [Message], limit: Int, pinned: Set<String>) async -> SkillRanking {
        let query = SkillRelevance.query(from: messages)
        let lexical = { [wordVectors, documents] in
            let entries = documents.entries(for: candidates)
            let vectors = wordVectors?.similarities(messages: messages, candidates: candidates, identities: entries.identities)
            return SkillRelevance.select(candidates, documents: entries.documents, query: query, limit: limit, pinned: pinned,
                                         semantic: vectors, lexicalWeight: WordVectorScorer.lexicalWeight)
        }
        guard candidates.count > limit else {
            return SkillRanking(cut: SkillRelevance.select(candidates, query: query, limit: limit, pinned: pinned, cache: documents), mode: .lexical)
        }
        let text = SkillRelevance.semanticQuery(from: messages)
        guard let scorer, !text.isEmpty else { return counted(SkillRanking(cut: lexical(), mode: .lexical)) }

        let clock = ContinuousClock()
        let started = clock.now
        let exampleLists = examples?.examples(for: candidates)
        let result = await scorer.similarities(query: text, documents: candidates.map(\.embeddingText), examples: exampleLists)
        let ms = (clock.now - started).logMilliseconds
        switch result {
        case .success(let scores):
            var similarities = scores.documents
            if let exampleScores = scores.examples, let weight = examples?.settings.weight {
                similarities = RelevanceFusion.blend(scores.documents, exampleScores, secondWeight: weight)
            }
            let cut = SkillRelevance.select(candidates, query: query, limit: limit, pinned: pinned, cache: documents, semantic: similarities)
            var ranking = SkillRanking(cut: cut, mode: .hybrid, semanticMilliseconds: ms)
            if let examples {
                ranking.examples = scores.examples != nil ? .used : .pending
                if scores.examples == nil { ranking.examplesError = examples.lastFailure }
            }
            return counted(ranking)
        case .failure(let error):
            return counted(SkillRanking(cut: lexical(), mode: .lexicalFallback(reason: error.reason),
                                        fallbackMessage: error.description, semanticMilliseconds: ms))
        }
    }

    private func counted(_ ranking: SkillRanking) -> SkillRanking {
        counters.count(ranking.mode)
        return ranking
    }
}
