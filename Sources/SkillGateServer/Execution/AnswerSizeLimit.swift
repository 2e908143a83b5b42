import SkillGateCore
import SkillGateRouting

/// The most one model answer may carry through the gateway (decision 0155): 32 MiB of its text, reasoning, refusal,
/// signatures and tool calls, as a whole answer's body is bounded (`HTTPClient.Configuration.maxResponseBytes`,
/// decision 0097). A model writes a small fraction of that at most (128k tokens are about half a MiB); an upstream that
/// streams past it is broken or hostile. Counted on every streamed answer as it is read: the relay keeps little, but an
/// answer read whole to check it (an escalating model's), one the Responses surface keeps for `response.completed`, and
/// an agent run's calls are held in memory, and one request streaming without end took the gateway to several GB.
struct AnswerSizeLimit {
    static let maxBytes = 32 << 20
    /// The answer's bytes counted so far.
    private(set) var bytes = 0

    /// Counts `event`; throws `exceeded` once the answer passes `maxBytes`.
    mutating func count(_ event: ChatStreamEvent, from target: RouteTarget) throws(GatewayError) {
        bytes += Self.size(of: event)
        if bytes > Self.maxBytes { throw Self.exceeded(target) }
    }

    /// What `event` adds to an answer held in memory.
    static func size(of event: ChatStreamEvent) -> Int {
        switch event {
        case .textDelta(let s), .refusalDelta(let s), .thinkingDelta(let s), .thinkingSignature(let s), .redactedThinking(let s):
            s.utf8.count
        case .toolCallStart(_, let id, let name): id.utf8.count + name.utf8.count
        case .toolCallArgumentsDelta(_, let s), .toolCallSignature(_, let s): s.utf8.count
        case .start(let id, let model): id.utf8.count + model.utf8.count
        case .toolCallEnd, .finish, .usage: 0
        }
    }

    /// The 502 of an answer past the limit: what happened, and what to do.
    static func exceeded(_ target: RouteTarget) -> GatewayError {
        .upstreamProtocol("the answer of \(target.qualifiedName) passed \(maxBytes >> 20) MiB of text and tool calls, far more than any "
                          + "model writes, so the gateway stopped reading it; set max_tokens (max_output_tokens on the Responses API) "
                          + "on the request, and the operator should check the deployment", provider: target.provider.id)
    }
}
