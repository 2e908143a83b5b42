import SkillGateCore
import SkillGateHTTP

/// Why an embedding call failed. The message says what happened and what to do; it never
/// contains a key (provider text is scrubbed the way chat errors are).
public struct EmbeddingError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The model did not answer in time.
        case timeout
        /// Could not connect (refused, unreachable, TLS).
        case unreachable
        /// The provider answered with a non-2xx status.
        case rejected
        /// A 2xx answer SkillGate could not use (not JSON, wrong count, wrong dimensions).
        case malformed
        /// The provider needs a key and none is set.
        case missingKey
        /// The caller stopped waiting (client gone).
        case cancelled
    }

    public var kind: Kind
    /// The embedding model, `provider/model`.
    public var model: String
    /// The provider's HTTP status, when it answered.
    public var upstreamStatus: Int?
    /// What went wrong and what to do next.
    public var message: String

    public init(kind: Kind, model: String, upstreamStatus: Int? = nil, message: String) {
        self.kind = kind
        self.model = model
        self.upstreamStatus = upstreamStatus
        self.message = message
    }

    /// A short machine-readable reason for logs and headers: `embeddings_timeout`,
    /// `embeddings_unreachable`, `embeddings_http_401`, `embeddings_malformed`, `embeddings_no_key`,
    /// `cancelled`.
    public var reason: String {
        switch kind {
        case .timeout: return "embeddings_timeout"
        case .unreachable: return "embeddings_unreachable"
        case .rejected: return "embeddings_http_\(upstreamStatus ?? 0)"
        case .malformed: return "embeddings_malformed"
        case .missingKey: return "embeddings_no_key"
        case .cancelled: return "cancelled"
        }
    }

    public var description: String { "embedding model \(model): \(message)" }

    /// The error for a transport failure (no complete answer arrived).
    static func transport(_ error: HTTPClientError, model: String, provider: String) -> EmbeddingError {
        if error.kind == .cancelled { return EmbeddingError(kind: .cancelled, model: model, message: "the request was cancelled") }
        // `isTimeout` is the client's own list of its timeouts, so a new kind of timeout is counted as one here too.
        return EmbeddingError(kind: error.isTimeout ? .timeout : .unreachable, model: model, message: error.gatewayError(provider: provider).message)
    }

    /// The error for an answer that is not what the embeddings API promises.
    static func malformed(_ detail: String, model: String) -> EmbeddingError {
        EmbeddingError(kind: .malformed, model: model, upstreamStatus: 200,
                       message: "\(detail); check that the provider's base_url points at an embeddings API and that the model id is an embedding model")
    }
}
