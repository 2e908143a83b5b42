/// What a text is embedded as. Retrieval models embed a question and the documents that answer it
/// differently (multilingual-e5 wants `"query: "` and `"passage: "` in front, Gemini a task type).
public enum EmbeddingPurpose: String, Sendable, Hashable, CaseIterable {
    /// The conversation a request is about (one text per request).
    case query
    /// A skill's description (embedded once, then cached).
    case document
}

/// Turns texts into vectors with an embedding model.
///
/// Implementations make one HTTP call per batch (`OpenAIEmbedder`, `GeminiEmbedder`) and throw
/// `EmbeddingError`, whose message says what failed and what to do, never containing a key.
public protocol TextEmbedder: Sendable {
    /// Names the vector space: two embedders with the same identity give the same vector for the
    /// same text and purpose (the cache relies on it). The wire format, the `provider/model` and
    /// anything else that changes the vectors, such as text prefixes.
    var identity: String { get }

    /// The model for messages (`provider/model`).
    var modelName: String { get }

    /// One vector per text, in the order of `texts`.
    func embed(_ texts: [String], as purpose: EmbeddingPurpose) async throws -> [[Float]]
}

extension TextEmbedder {
    public var modelName: String { identity }
}
