import SkillGateCore

/// The events of a prompt-tools stream that wait for its first content (decision 0120): the answer's `start`, and a
/// usage reported before any content. Sent ahead of the first content event, or at the end of an answer that had
/// none; never sent when the stream fails first, so a stream whose first call is malformed fails before its first event
/// and can be tried again.
struct PromptToolsHeldEvents: Sendable {
    private var waiting: [ChatStreamEvent] = []
    private var released = false

    /// Holds `event` while no content went out; sends it once some did.
    mutating func hold(_ event: ChatStreamEvent, _ continuation: AsyncThrowingStream<ChatStreamEvent, any Error>.Continuation) {
        if released { continuation.yield(event) } else { waiting.append(event) }
    }

    /// Sends `events`, after the held ones when they are the first to go out.
    mutating func send(_ events: [ChatStreamEvent], _ continuation: AsyncThrowingStream<ChatStreamEvent, any Error>.Continuation) {
        guard !events.isEmpty else { return }
        release(continuation)
        for event in events { continuation.yield(event) }
    }

    /// Sends the held events, if any are still waiting.
    mutating func release(_ continuation: AsyncThrowingStream<ChatStreamEvent, any Error>.Continuation) {
        guard !released else { return }
        released = true
        for event in waiting { continuation.yield(event) }
        waiting.removeAll()
    }
}

/// What a prompt-tools stream used so far, for the usage of a malformed call that ends it (decision 0120): the usage
/// the inner model reported, or else an estimate from the bytes sent and read (`UsageEstimate`, decision 0104).
struct PromptToolsSpend: Sendable {
    var inputBytes = 0
    var outputBytes = 0
    var reported: Usage?

    var usage: Usage {
        reported ?? Usage(inputTokens: UsageEstimate.tokens(bytes: inputBytes), outputTokens: UsageEstimate.tokens(bytes: outputBytes))
    }
}
