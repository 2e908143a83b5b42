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
    /// The usage a failed answer that ended the stream carried, estimated by its adapter (decision 0120).
    private var estimatedByAdapter: Usage?

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

    /// The stream ended with `error`. A failed answer (decision 0117) carries what the attempt used: the figures the
    /// provider reported up to it (a Gemini stream reports usage in every chunk but the gateway sends it on only at the
    /// end), which replace any reported before; or its adapter's estimate, which includes what the adapter added to the
    /// request (the rendered tool prompt), used when nothing was reported (decision 0123). A failed answer with no
    /// figures at all (a Gemini stream that reported no `usageMetadata`) leaves the estimate.
    mutating func ended(by error: any Error) {
        guard let failed = (error as? GatewayError)?.failedAnswer, failed.usage != Usage() else { return }
        if !failed.usageEstimated {
            reported = failed.usage
        } else if reported == nil {
            estimatedByAdapter = failed.usage
        }
    }

    /// The usage reported, or else the estimate, with whether it was estimated.
    var spent: (usage: Usage, estimated: Bool) {
        if let reported { return (reported, false) }
        if let estimatedByAdapter { return (estimatedByAdapter, true) }
        return (Usage(inputTokens: UsageEstimate.tokens(bytes: inputBytes), outputTokens: UsageEstimate.tokens(bytes: outputBytes)), true)
    }
}
