import SkillGateCore

/// What a streamed answer used, as far as it went (decision 0104): the usage the provider reported, or, when the stream
/// ended before that came (the client left, the upstream failed, or the provider reports none), an estimate from the
/// input sent and the output seen. Counted event by event by whoever reads the stream: the relay of a chat surface's
/// stream, and an agent run's streamed model call.
struct StreamSpend: Sendable {
    /// The bytes of the request's input (`UsageEstimate.inputBytes`).
    let inputBytes: Int
    /// The bytes of the output seen so far: text, reasoning, tool names and arguments.
    private(set) var outputBytes = 0
    /// The last usage the provider reported (each carries the totals known so far).
    private(set) var reported: Usage?

    init(inputOf request: ChatRequest) {
        inputBytes = UsageEstimate.inputBytes(of: request)
    }

    /// Counts what `event` carries.
    mutating func count(_ event: ChatStreamEvent) {
        switch event {
        case .textDelta(let t), .refusalDelta(let t), .thinkingDelta(let t): outputBytes += t.utf8.count
        case .toolCallStart(_, _, let name): outputBytes += name.utf8.count + 16
        case .toolCallArgumentsDelta(_, let fragment): outputBytes += fragment.utf8.count
        case .usage(let u): reported = u
        case .start, .thinkingSignature, .redactedThinking, .toolCallSignature, .toolCallEnd, .finish: break
        }
    }

    /// The usage reported, or else the estimate, with whether it was estimated.
    var spent: (usage: Usage, estimated: Bool) {
        if let reported { return (reported, false) }
        return (Usage(inputTokens: UsageEstimate.tokens(bytes: inputBytes), outputTokens: UsageEstimate.tokens(bytes: outputBytes)), true)
    }
}
