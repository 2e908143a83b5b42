import SkillGateCore
import SkillGateRouting

/// The most one model answer may carry through the gateway (decision 0155): 32 MiB of its text, reasoning, refusal,
/// signatures and tool calls, with what each event and each tool call costs to hold, as a whole answer's body is bounded (`HTTPClient.Configuration.maxResponseBytes`,
/// decision 0097). A model writes a small fraction of that at most (128k tokens are about half a MiB); an upstream that
/// streams past it is broken or hostile. Counted on every streamed answer as it is read: the relay keeps little, but an
/// answer read whole to check it (an escalating model's), one the Responses surface keeps for `response.completed`, and
/// an agent run's calls are held in memory, and one request streaming without end took the gateway to several GB.
struct AnswerSizeLimit: Sendable {
    /// The bound unless the config sets `limits.max_answer_mib`.
    static let defaultMaxBytes = 32 << 20
    /// This answer's bound.
    let maxBytes: Int
    /// The answer's bytes counted so far.
    private(set) var bytes = 0

    init(maxBytes: Int = AnswerSizeLimit.defaultMaxBytes) {
        self.maxBytes = maxBytes
    }

    /// Counts `event`; throws `exceeded` once the answer passes `maxBytes`.
    mutating func count(_ event: ChatStreamEvent, from target: RouteTarget) throws(GatewayError) {
        bytes += Self.size(of: event)
        if bytes > maxBytes { throw Self.exceeded(target, maxBytes: maxBytes) }
    }

    /// What holding one event costs besides its text: an answer read whole keeps each event (about a hundred bytes
    /// apiece), so 16 million one-byte deltas, 16 MB of text, took 1.6 GB (decision 0155, attacked again). A model's
    /// answer has a few hundred thousand events at most (one a token), which this keeps far below the limit.
    static let eventOverhead = 64
    /// What a tool call costs besides its events: its state in the translators and encoders (an ordinal, an id, its
    /// arguments' buffer, a Responses output item). Three million tiny calls took the Responses surface to 2.85 GB; this
    /// allows some 60,000 calls in one answer, far more than any model makes.
    static let toolCallOverhead = 512

    /// What `event` adds to an answer held in memory.
    static func size(of event: ChatStreamEvent) -> Int {
        let text: Int
        switch event {
        case .textDelta(let s), .refusalDelta(let s), .thinkingDelta(let s), .thinkingSignature(let s), .redactedThinking(let s):
            text = s.utf8.count
        case .toolCallStart(_, let id, let name): text = toolCallOverhead + id.utf8.count + name.utf8.count
        case .toolCallArgumentsDelta(_, let s), .toolCallSignature(_, let s): text = s.utf8.count
        case .start(let id, let model): text = id.utf8.count + model.utf8.count
        case .toolCallEnd, .finish, .usage: text = 0
        }
        return eventOverhead + text
    }

    /// The 502 of an answer past the limit: what happened, and what to do.
    static func exceeded(_ target: RouteTarget, maxBytes: Int) -> GatewayError {
        .upstreamProtocol("the answer of \(target.qualifiedName) passed \(maxBytes >> 20) MiB of text and tool calls, far more than any "
                          + "model writes, so the gateway stopped reading it; set max_tokens (max_output_tokens on the Responses API) "
                          + "on the request, and the operator should check the deployment (or raise limits.max_answer_mib)", provider: target.provider.id)
    }
}
