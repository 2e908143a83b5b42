import Synchronization

/// Document vectors from the cache, or from the model in one batch per call for the documents
/// not cached yet. A batch runs as a task of its own, shared with every caller that needs one of
/// its documents meanwhile, and fills the cache when it ends, whether or not anybody still waits
/// for it (a caller past its deadline stops waiting; the next one finds the vectors cached).
final class DocumentBatches: Sendable {
    typealias Batch = Task<Result<[EmbeddingKey: [Float]], EmbeddingError>, Never>

    let embedder: any TextEmbedder
    let cache: EmbeddingCache
    private let inFlight = Mutex<[EmbeddingKey: Batch]>([:])

    init(embedder: any TextEmbedder, cache: EmbeddingCache) {
        self.embedder = embedder
        self.cache = cache
    }

    /// One vector per text, in order, each embedded for `purpose` (skill descriptions as documents;
    /// example requests, which are compared with a request, as queries).
    func vectors(for texts: [String], as purpose: EmbeddingPurpose = .document) async -> Result<[[Float]], EmbeddingError> {
        let identity = embedder.identity
        let keys = texts.map { EmbeddingKey(identity: identity, purpose: purpose, text: $0) }
        var found = await cache.vectors(for: keys)
        var missing: [EmbeddingKey] = []
        var seen = Set<EmbeddingKey>()
        for (i, key) in keys.enumerated() where found[i] == nil && seen.insert(key).inserted { missing.append(key) }
        guard !missing.isEmpty else { return .success(found.map { $0! }) }

        var merged: [EmbeddingKey: [Float]] = [:]
        for batch in join(missing) {
            switch await batch.value {
            case .success(let vectors): merged.merge(vectors) { a, _ in a }
            case .failure(let error): return .failure(error)
            }
        }
        for i in keys.indices where found[i] == nil { found[i] = merged[keys[i]] }
        guard found.allSatisfy({ $0 != nil }) else {
            return .failure(EmbeddingError.malformed("a document batch ended without a vector for every text", model: embedder.modelName))
        }
        return .success(found.map { $0! })
    }

    /// The batches that will deliver `keys`: those already running for some of them, and one new
    /// batch for the rest.
    private func join(_ keys: [EmbeddingKey]) -> [Batch] {
        inFlight.locked { running in
            var batches: [Batch] = []
            var fresh: [EmbeddingKey] = []
            for key in keys {
                if let batch = running[key] {
                    if !batches.contains(batch) { batches.append(batch) }
                } else {
                    fresh.append(key)
                }
            }
            if !fresh.isEmpty {
                let batch = start(fresh)
                for key in fresh { running[key] = batch }
                batches.append(batch)
            }
            return batches
        }
    }

    /// Embeds `keys`' texts (all of one purpose) in one call (off the caller's event loop: the cache may write SQLite),
    /// caches the vectors at unit length (`UnitVector`), and forgets the batch.
    private func start(_ keys: [EmbeddingKey]) -> Batch {
        Task(executorPreference: globalConcurrentExecutor) { [embedder, cache] in
            let result: Result<[EmbeddingKey: [Float]], EmbeddingError>
            do {
                let vectors = try await embedder.embed(keys.map(\.text), as: keys.first?.purpose ?? .document)
                if vectors.count != keys.count {
                    result = .failure(EmbeddingError.malformed("the answer has \(vectors.count) vectors for \(keys.count) texts", model: embedder.modelName))
                } else {
                    // Unit length before anything is cached or compared; a vector that has none fails the batch (decision 0102).
                    switch UnitVector.normalised(vectors, model: embedder.modelName) {
                    case .success(let units):
                        let byKey = Dictionary(zip(keys, units), uniquingKeysWith: { a, _ in a })
                        await cache.insert(byKey)
                        result = .success(byKey)
                    case .failure(let error):
                        result = .failure(error)
                    }
                }
            } catch {
                result = .failure(EmbeddingError.wrapping(error, model: embedder.modelName))
            }
            self.inFlight.locked { running in for key in keys { running[key] = nil } }
            return result
        }
    }
}
