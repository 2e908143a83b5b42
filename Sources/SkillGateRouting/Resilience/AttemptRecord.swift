import SkillGateCore

/// One upstream attempt of a request (or a deployment passed over), for the request's log line.
public struct AttemptRecord: Sendable, Hashable {
    /// What happened.
    public enum Outcome: Sendable, Hashable {
        /// The deployment answered (before the first byte reached the client: `status` 200).
        case succeeded(status: Int)
        /// The attempt failed with this status and kind.
        case failed(status: Int, kind: GatewayError.Kind)
        /// The deployment was not called (cooling down, or its Retry-After passes the deadline).
        case skipped(reason: String)
    }

    /// `provider/model`.
    public var deployment: String
    public var outcome: Outcome
    /// How long the request waited (backoff, Retry-After) before this attempt.
    public var waited: Duration
    /// The name (never the secret) of the pooled key the attempt used, when the provider has several.
    public var key: String?

    public init(deployment: String, outcome: Outcome, waited: Duration = .zero, key: String? = nil) {
        self.deployment = deployment
        self.outcome = outcome
        self.waited = waited
        self.key = key
    }

    /// `up-openai/gpt-test: 429 rate_limited after 250 ms`, `… : 200 ok`, `… : skipped (cooling down)`,
    /// `up-openai/gpt-test [OPENAI_API_KEY_2]: 200 ok` for a pooled key.
    public var logText: String {
        var s = deployment + (key.map { " [\($0)]" } ?? "") + ": "
        switch outcome {
        case .succeeded(let status): s += "\(status) ok"
        case .failed(let status, let kind): s += "\(status) \(kind.rawValue)"
        case .skipped(let reason): s += "skipped (\(reason))"
        }
        if waited > .zero { s += " after \(Int(waited.resilienceMilliseconds.rounded())) ms" }
        return s
    }
}
