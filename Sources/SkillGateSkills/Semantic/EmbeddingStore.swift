/// What a cached vector is the vector of: the embedder (its `identity`), the purpose and the text.
public struct EmbeddingKey: Sendable, Hashable {
    public var identity: String
    public var purpose: EmbeddingPurpose
    public var text: String

    public init(identity: String, purpose: EmbeddingPurpose, text: String) {
        self.identity = identity
        self.purpose = purpose
        self.text = text
    }

    /// The three parts as one text (NUL-separated, so no two keys give the same content), for
    /// a persistent store to hash.
    public var content: String { identity + "\u{0}" + purpose.rawValue + "\u{0}" + text }
}

/// Vectors kept across restarts (the gateway's SQLite state store; SkillGateServer's
/// `SQLiteEmbeddingStore`). Implementations are thread-safe; calls are short and synchronous.
public protocol EmbeddingStore: Sendable {
    /// The stored vectors of `keys` (keys without one are absent).
    func vectors(for keys: [EmbeddingKey]) throws -> [EmbeddingKey: [Float]]
    /// Stores `vectors`, replacing any stored under the same key.
    func store(_ vectors: [EmbeddingKey: [Float]]) throws
}
