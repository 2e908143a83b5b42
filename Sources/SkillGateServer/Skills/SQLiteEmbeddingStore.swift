import SkillGateKeys
import SkillGateSkills
import SkillGateState

/// Semantic ranking's vector cache in the gateway's SQLite state store (table `embedding_cache`),
/// so skill vectors survive restarts. Rows are keyed by the SHA-256 of the key's content
/// (embedder identity, purpose, text): the text itself is not stored.
public struct SQLiteEmbeddingStore: EmbeddingStore {
    let store: SQLiteStateStore

    public init(store: SQLiteStateStore) { self.store = store }

    public func vectors(for keys: [EmbeddingKey]) throws -> [EmbeddingKey: [Float]] {
        let hashes = keys.map { SHA256Hash.hex($0.content) }
        let found = try store.embeddings(keys: hashes)
        var out: [EmbeddingKey: [Float]] = [:]
        for (key, hash) in zip(keys, hashes) { if let v = found[hash] { out[key] = v } }
        return out
    }

    public func store(_ vectors: [EmbeddingKey: [Float]]) throws {
        try store.saveEmbeddings(vectors.map { StoredEmbedding(key: SHA256Hash.hex($0.key.content), embedder: $0.key.identity, vector: $0.value) })
    }
}
