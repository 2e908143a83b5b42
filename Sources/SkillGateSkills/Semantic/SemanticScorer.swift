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
        let model = embedder.modelName
        let timeout = self.timeout
        let outcome = await Deadline.run(within: timeout) { [self] in
            await self.compute(query: query, documents: documents)
        }
        if let outcome { return outcome }
        if Task.isCancelled {
            return .failure(EmbeddingError(kind: .cancelled, model: model, message: "the request was cancelled"))
        }
        return .failure(EmbeddingError(
            kind: .timeout, model: model,
            message: "no similarities within \(Self.milliseconds(timeout)) ms (skill_ranking.embeddings.timeout_ms); ranked lexically. New skill descriptions keep embedding in the background; if this persists, raise timeout_ms or use a faster embedding model"))
    }

    /// Query and document vectors, concurrently, then their similarities.
    private func compute(query: String, documents: [String]) async -> Result<[Double], EmbeddingError> {
        async let queryVector = embedQuery(query)
        let documentVectors = await batches.vectors(for: documents)
        let q: [Float]
        switch await queryVector {
        case .success(let v): q = v
        case .failure(let e): return .failure(e)
        }
        switch documentVectors {
        case .failure(let e): return .failure(e)
        case .success(let vectors):
            guard vectors.allSatisfy({ $0.count == q.count }) else {
                return .failure(EmbeddingError.malformed("the query vector has \(q.count) dimensions and a cached document vector another length", model: embedder.modelName))
            }
            guard let centering else { return .success(VectorMath.cosines(q, vectors)) }
            let c = centering.center(query: q, queryText: query, documents: vectors, documentTexts: documents)
            return .success(VectorMath.cosines(c.query, c.documents))
        }
    }

    private func embedQuery(_ text: String) async -> Result<[Float], EmbeddingError> {
        do {
            let vectors = try await embedder.embed([text], as: .query)
            guard let v = vectors.first, vectors.count == 1 else {
                return .failure(EmbeddingError.malformed("the answer has \(vectors.count) vectors for 1 text", model: embedder.modelName))
            }
            return .success(v)
        } catch {
            return .failure(EmbeddingError.wrapping(error, model: embedder.modelName))
        }
    }

    private static func milliseconds(_ d: Duration) -> Int {
        Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }
}

extension EmbeddingError {
    /// `error` as an `EmbeddingError` (an embedder may throw others, such as `CancellationError`).
    static func wrapping(_ error: any Error, model: String) -> EmbeddingError {
        if let e = error as? EmbeddingError { return e }
        if error is CancellationError { return EmbeddingError(kind: .cancelled, model: model, message: "the request was cancelled") }
        return EmbeddingError(kind: .malformed, model: model, message: "\(error)")
    }
}
