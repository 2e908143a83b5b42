import Synchronization

/// Cosine similarities between a query and documents with an embedding model, within a deadline.
///
/// A call costs one query embedding when the documents' vectors are cached (`EmbeddingCache`);
/// documents seen for the first time are embedded in one batch that is shared by concurrent
/// callers and keeps running after a caller's deadline, so the next request finds them cached.
/// The deadline covers the whole call, a cold document batch included: a caller never waits
/// longer than `timeout` for similarities, and falls back to lexical ranking instead.
public final class SemanticScorer: Sendable {
    public let embedder: any TextEmbedder
    public let cache: EmbeddingCache
    /// How long a call may take, the document batch included (`skill_ranking.embeddings.timeout_ms`).
    public let timeout: Duration
    /// Removes each language's centre before comparing (`nil`: raw cosines).
    public let centering: LanguageCentering?
    private let batches: DocumentBatches

    public init(embedder: any TextEmbedder, cache: EmbeddingCache = EmbeddingCache(), timeout: Duration = .milliseconds(300),
                centering: LanguageCentering? = LanguageCentering()) {
        self.embedder = embedder
        self.cache = cache
        self.timeout = timeout
        self.centering = centering
        batches = DocumentBatches(embedder: embedder, cache: cache)
    }

    /// One similarity (cosine, -1...1) per document, in order; or why there are none: the model
    /// failed, or `timeout` passed (`EmbeddingError.Kind.timeout`).
    public func similarities(query: String, documents: [String]) async -> Result<[Double], EmbeddingError> {
        await similarities(query: query, documents: documents, examples: nil).map(\.documents)
    }

    /// The documents' similarities and, when `examples` (one list of example requests per document) is
    /// given, each document's `ExampleSimilarity` score too, all within `timeout`. Example requests are
    /// embedded as queries and cached like the documents.
    public func similarities(query: String, documents: [String], examples: [[String]]?) async -> Result<SemanticScores, EmbeddingError> {
        let model = embedder.modelName
        let timeout = self.timeout
        let outcome = await Deadline.run(within: timeout) { [self] in
            await self.compute(query: query, documents: documents, examples: examples)
        }
        if let outcome { return outcome }
        if Task.isCancelled {
            return .failure(EmbeddingError(kind: .cancelled, model: model, message: "the request was cancelled"))
        }
        return .failure(EmbeddingError(
            kind: .timeout, model: model,
            message: "no similarities within \(Self.milliseconds(timeout)) ms (skill_ranking.embeddings.timeout_ms); ranked lexically. New skill descriptions keep embedding in the background; if this persists, raise timeout_ms or use a faster embedding model"))
    }

    /// Query, document and example vectors, concurrently, then their similarities.
    private func compute(query: String, documents: [String], examples: [[String]]?) async -> Result<SemanticScores, EmbeddingError> {
        async let queryVector = embedQuery(query)
        async let exampleVectors = exampleVectors(examples)
        let documentVectors = await batches.vectors(for: documents)
        let q: [Float]
        switch await queryVector {
        case .success(let v): q = v
        case .failure(let e): return .failure(e)
        }
        let cosines: [Double]
        switch documentVectors {
        case .failure(let e): return .failure(e)
        case .success(let vectors):
            guard vectors.allSatisfy({ $0.count == q.count }) else {
                return .failure(EmbeddingError.malformed("the query vector has \(q.count) dimensions and a cached document vector another length", model: embedder.modelName))
            }
            if let centering {
                let c = centering.center(query: q, queryText: query, documents: vectors, documentTexts: documents)
                cosines = VectorMath.cosines(c.query, c.documents)
            } else {
                cosines = VectorMath.cosines(q, vectors)
            }
        }
        let documentScores: [Double]
        switch FiniteScores.checked(cosines, of: "the skill descriptions", model: embedder.modelName) {
        case .success(let scores): documentScores = scores
        case .failure(let e): return .failure(e)
        }
        guard let examples else { return .success(SemanticScores(documents: documentScores, examples: nil)) }
        guard let flat = await exampleVectors else { return .success(SemanticScores(documents: documentScores, examples: nil)) }
        guard flat.allSatisfy({ $0.count == q.count }) else {
            return .failure(EmbeddingError.malformed("the query vector has \(q.count) dimensions and a cached example vector another length", model: embedder.modelName))
        }
        var next = 0
        let grouped = examples.map { texts in
            texts.map { text in
                defer { next += 1 }
                return (vector: flat[next], text: text)
            }
        }
        return FiniteScores.checked(ExampleSimilarity.scores(query: q, queryText: query, examples: grouped),
                                    of: "the skills' example requests", model: embedder.modelName)
            .map { SemanticScores(documents: documentScores, examples: $0) }
    }

    /// Embeds (and caches) every example request not cached yet, without a deadline: for warming up
    /// before traffic. The model's error, if it fails.
    public func embedExamples(_ examples: [[String]]) async -> EmbeddingError? {
        if case .failure(let error) = await batches.vectors(for: examples.flatMap { $0 }, as: .query) { return error }
        return nil
    }

    /// The vectors of every example request, in order, when all are cached. Otherwise `nil`, and the
    /// missing ones are embedded in the background: a request never waits for a skill's examples to
    /// be embedded (there are a dozen per skill), it is ranked by the descriptions meanwhile.
    private func exampleVectors(_ examples: [[String]]?) async -> [[Float]]? {
        guard let examples else { return nil }
        let texts = examples.flatMap { $0 }
        let identity = embedder.identity
        let cached = await cache.vectors(for: texts.map { EmbeddingKey(identity: identity, purpose: .query, text: $0) })
        if cached.allSatisfy({ $0 != nil }) { return cached.map { $0! } }
        Task(executorPreference: globalConcurrentExecutor) { [batches] in _ = await batches.vectors(for: texts, as: .query) }
        return nil
    }

    private func embedQuery(_ text: String) async -> Result<[Float], EmbeddingError> {
        do {
            let vectors = try await embedder.embed([text], as: .query)
            guard let v = vectors.first, vectors.count == 1 else {
                return .failure(EmbeddingError.malformed("the answer has \(vectors.count) vectors for 1 text", model: embedder.modelName))
            }
            // Unit length before it is centred and enters the running mean of queries (decision 0102).
            return UnitVector.normalised([v], model: embedder.modelName).map { $0[0] }
        } catch {
            return .failure(EmbeddingError.wrapping(error, model: embedder.modelName))
        }
    }

    private static func milliseconds(_ d: Duration) -> Int {
        Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }
}

/// What `SemanticScorer.similarities(query:documents:examples:)` found: one score per document.
public struct SemanticScores: Sendable, Hashable {
    /// Cosine similarities of the query with the documents (language-centred when centring is on).
    public var documents: [Double]
    /// `ExampleSimilarity` scores, when example requests were given.
    public var examples: [Double]?
}

extension EmbeddingError {
    /// `error` as an `EmbeddingError` (an embedder may throw others, such as `CancellationError`).
    static func wrapping(_ error: any Error, model: String) -> EmbeddingError {
        if let e = error as? EmbeddingError { return e }
        if error is CancellationError { return EmbeddingError(kind: .cancelled, model: model, message: "the request was cancelled") }
        return EmbeddingError(kind: .malformed, model: model, message: "\(error)")
    }
}
