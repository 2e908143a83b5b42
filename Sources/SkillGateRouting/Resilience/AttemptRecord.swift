import SkillGateCore
import Synchronization

/// One upstream attempt of a request (or a deployment passed over), for the request's log line.
///
/// The attempt that opened a relayed stream is recorded when its first event arrived, before the stream's end is
/// known; it carries the stream's `StreamEnd`, and its `outcome` reads `.failedMidStream` once the stream failed
/// because of the upstream (decision 0107). Log lines, metrics and ledger rows are made after the stream ended, so
/// they see how it really ended.
public struct AttemptRecord: Sendable, Hashable {
    /// What happened.
    public enum Outcome: Sendable, Hashable {
        /// The deployment answered (before the first byte reached the client: `status` 200).
        case succeeded(status: Int)
        /// The attempt failed with this status and kind.
        case failed(status: Int, kind: GatewayError.Kind)
        /// The deployment was not called (cooling down, or its Retry-After passes the deadline).
        case skipped(reason: String)
        /// The stream started (its first event arrived, with 200) and then failed because of the upstream (an error
        /// event, a cut connection, a truncated stream) with this status and kind. Nothing was retried: it was
        /// committed to this deployment.
        case failedMidStream(status: Int, kind: GatewayError.Kind)
    }

    /// `provider/model`.
    public var deployment: String
    /// What happened: the outcome recorded, or, for a stream whose end was told to `streamEnd`, how it ended.
    public var outcome: Outcome {
        get { streamEnd?.outcome ?? recorded }
        set {
            recorded = newValue
            streamEnd = nil
        }
    }
    private var recorded: Outcome
    /// How long the request waited (backoff, Retry-After) before this attempt.
    public var waited: Duration
    /// The name (never the secret) of the pooled key the attempt used, when the provider has several.
    public var key: String?
    /// For the attempt that opened a relayed stream: where the stream's failure is told.
    public private(set) var streamEnd: StreamEnd?
    /// For an attempt whose answer was a failed attempt (Gemini's `MALFORMED_FUNCTION_CALL`): why, and what it used
    /// (decision 0117).
    public var failedAnswer: GatewayError.FailedAnswer?
    /// The attempt failed on a timeout of the gateway's own after its request had gone out (`GatewayError.timedOutAfterSending`):
    /// the provider most likely billed the prompt, and the request is charged an estimate of it (decision 0130).
    public var timedOutAfterSending: Bool
    /// The provider refused the pooled `key` itself (a 401 or 429, or its own key error), not the request: the key cools
    /// down, and `skillgate_key_failures_total` counts it.
    public var keyRefused: Bool

    public init(deployment: String, outcome: Outcome, waited: Duration = .zero, key: String? = nil, streamEnd: StreamEnd? = nil,
                failedAnswer: GatewayError.FailedAnswer? = nil, timedOutAfterSending: Bool = false, keyRefused: Bool = false) {
        self.deployment = deployment
        self.recorded = outcome
        self.waited = waited
        self.key = key
        self.streamEnd = streamEnd
        self.failedAnswer = failedAnswer
        self.timedOutAfterSending = timedOutAfterSending
        self.keyRefused = keyRefused
    }

    /// Why the attempt's answer was a failed attempt (`malformed_function_call`), also when a relayed stream ended so.
    public var failedAnswerReason: GatewayError.FailedAnswer.Reason? {
        failedAnswer?.reason ?? streamEnd?.failedAnswerReason
    }

    public static func == (a: AttemptRecord, b: AttemptRecord) -> Bool {
        a.deployment == b.deployment && a.outcome == b.outcome && a.waited == b.waited && a.key == b.key && a.failedAnswer == b.failedAnswer
            && a.timedOutAfterSending == b.timedOutAfterSending && a.keyRefused == b.keyRefused
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(deployment)
        hasher.combine(outcome)
        hasher.combine(waited)
        hasher.combine(key)
        hasher.combine(failedAnswer)
        hasher.combine(timedOutAfterSending)
    }

    /// `up-openai/gpt-test: 429 rate_limited after 250 ms`, `… : 200 ok`, `… : skipped (cooling down)`,
    /// `… : 200, then 503 upstream_overloaded mid-stream`, `up-openai/gpt-test [OPENAI_API_KEY_2]: 200 ok` for a pooled key,
    /// `up-gemini/flash: 502 upstream_error (malformed_function_call)` for a failed answer.
    public var logText: String {
        var s = deployment + (key.map { " [\($0)]" } ?? "") + ": "
        switch outcome {
        case .succeeded(let status): s += "\(status) ok"
        case .failed(let status, let kind): s += "\(status) \(kind.rawValue)"
        case .skipped(let reason): s += "skipped (\(reason))"
        case .failedMidStream(let status, let kind): s += "200, then \(status) \(kind.rawValue) mid-stream"
        }
        if let reason = failedAnswerReason { s += " (\(reason.rawValue))" }
        if waited > .zero { s += " after \(Int(waited.resilienceMilliseconds.rounded())) ms" }
        return s
    }
}

/// The end of a relayed stream, told by whoever reads it, read by its `AttemptRecord` when the request's log line,
/// metrics and ledger rows are made. Only a failure because of the upstream is kept: a stream that ended normally, or
/// that the client left, stays the success its first event made it.
public final class StreamEnd: Sendable {
    private let failure = Mutex<(outcome: AttemptRecord.Outcome, reason: GatewayError.FailedAnswer.Reason?)?>(nil)

    public init() {}

    /// `.failedMidStream` once `failed` was told, else nil.
    public var outcome: AttemptRecord.Outcome? { failure.locked { $0?.outcome } }

    /// Why the stream's answer was a failed attempt, when it ended so (decision 0117).
    public var failedAnswerReason: GatewayError.FailedAnswer.Reason? { failure.locked { $0?.reason } }

    /// The stream failed after its first event because of the upstream, with this status and kind, and, for an answer
    /// that turned out a failed attempt, its reason (the first telling counts).
    public func failed(status: Int, kind: GatewayError.Kind, failedAnswer reason: GatewayError.FailedAnswer.Reason? = nil) {
        failure.locked { if $0 == nil { $0 = (.failedMidStream(status: status, kind: kind), reason) } }
    }
}
