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
        // A usage that counts no token at all is no report: a provider's that could not be read (counts sent as text,
        // with a fraction, or `null`) comes out so, and the answer is charged the estimate instead (decision 0146).
        case .usage(let u) where Self.countsTokens(u): reported = u
        case .usage: break
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

    /// What a whole answer used: the usage the provider reported, or, when it reported none that counts a token (left
    /// out, `null`, or unreadable), an estimate from the request's input and the answer's content, as for a stream
    /// (decision 0146). Before, such an answer was charged nothing, so a provider that leaves usage out made every limit
    /// on tokens and every budget toothless.
    static func spent(by response: ChatResponse, for request: ChatRequest) -> (usage: Usage, estimated: Bool) {
        // Reported (nearly always): nothing to estimate, and the request's input is not measured.
        if countsTokens(response.usage) { return (response.usage, false) }
        var spend = StreamSpend(inputOf: request)
        for block in response.content {
            switch block {
            case .text(let t): spend.count(.textDelta(t))
            case .thinking(let t): spend.count(.thinkingDelta(t.text))
            case .toolCall(let call):
                spend.count(.toolCallStart(ordinal: 0, id: call.id, name: call.name))
                spend.count(.toolCallArgumentsDelta(ordinal: 0, fragment: call.arguments))
            case .image, .toolResult: break
            }
        }
        return spend.spent
    }

    /// Whether `usage` is a report: it counts a token. One that counts none is a provider's left out or unreadable.
    private static func countsTokens(_ usage: Usage) -> Bool {
        usage.inputTokens > 0 || usage.outputTokens > 0
    }

    /// The usage reported, or else the estimate, with whether it was estimated.
    var spent: (usage: Usage, estimated: Bool) {
        if let reported { return (reported, false) }
        if let estimatedByAdapter { return (estimatedByAdapter, true) }
        return (Usage(inputTokens: UsageEstimate.tokens(bytes: inputBytes), outputTokens: UsageEstimate.tokens(bytes: outputBytes)), true)
    }
}
