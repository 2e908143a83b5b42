import SkillGateCore

/// `parallel_tool_calls: false` kept by the gateway (decision 0135): an answer hands on its first tool call only.
///
/// OpenAI and Anthropic models are told the rule in the request (`parallel_tool_calls`, `disable_parallel_tool_use`) and
/// keep it; Gemini has no such setting and the prompt-tools adapter can only ask in words, so their models may answer with
/// several calls to a client that said it handles one at a time. The gateway keeps the first and drops the rest: the
/// model sees its later calls were not made (no result comes back for them) and can make them in its next turn.
struct SingleToolCall: Sendable {
    /// The ordinal of the answer's first tool call, once it started.
    private var first: Int?
    /// How many later calls were dropped.
    private(set) var dropped = 0

    init() {}

    /// Whether a stream's `event` belongs to a tool call after the first, and so is not handed on.
    mutating func drops(_ event: ChatStreamEvent) -> Bool {
        let ordinal: Int
        switch event {
        case .toolCallStart(let o, _, _): ordinal = o
        case .toolCallArgumentsDelta(let o, _), .toolCallSignature(let o, _), .toolCallEnd(let o): ordinal = o
        default: return false
        }
        guard let first else {
            first = ordinal
            return false
        }
        guard ordinal != first else { return false }
        if case .toolCallStart = event { dropped += 1 }
        return true
    }

    /// A whole answer with its first tool call only (its text, reasoning and other blocks kept); how many were dropped.
    static func keepingTheFirstCall(of response: ChatResponse) -> (ChatResponse, dropped: Int) {
        var seenCall = false
        var dropped = 0
        var kept = response
        kept.content = response.content.filter { block in
            guard case .toolCall = block else { return true }
            defer { seenCall = true }
            if seenCall { dropped += 1 }
            return !seenCall
        }
        return (kept, dropped)
    }

    /// The log's note for `dropped` calls.
    static func note(_ dropped: Int) -> String {
        "dropped \(dropped) tool call\(dropped == 1 ? "" : "s") after the first (parallel_tool_calls: false)"
    }
}
