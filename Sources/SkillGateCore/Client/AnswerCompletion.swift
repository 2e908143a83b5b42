/// Whether a streamed answer is complete, its stream ended or not (decision 0154): its finish was read and the usage
/// that follows it, or the finish alone once the usage's short hold is over (`usageAwaited`). Nothing of the answer comes
/// after these: a provider that keeps its stream open after them (no `[DONE]`, no `message_stop`; `: ping` comments
/// only) held the client's stream open until the upstream's idle or total timeout, which then ended a complete answer
/// with a timeout error, counted against the deployment.
///
/// Read by every reader of an upstream stream in the gateway (the relay, a stream read whole, an agent run's model call)
/// and by the prompt-tools adapter, which reads its inner model's stream itself (decision 0160).
public struct AnswerCompletion: Sendable {
    /// The answer's finish was read.
    public private(set) var finished = false
    /// The answer is complete: what its stream sends after this is at most a usage again, then its end.
    public private(set) var complete = false

    /// An answer of which nothing was read yet.
    public init() {}

    /// Notes an event read of the answer: a usage after the finish completes it.
    public mutating func note(_ event: ChatStreamEvent) {
        switch event {
        case .finish: finished = true
        case .usage where finished: complete = true
        default: break
        }
    }

    /// The usage did not come within its hold after the finish: the answer is complete without it.
    public mutating func closeWithoutUsage() {
        if finished { complete = true }
    }

    /// How long the usage is waited for after the finish: a provider sends its usage at once after its finish (in the
    /// same read, nearly always), or not at all (decision 0146). The relay holds the finish as long
    /// (`ChatEncoding.finishHeldForUsage`).
    public static var usageAwaited: Duration { .seconds(1) }

    /// How long a complete answer's stream is read on for its end before it is let go. The end nearly always comes at
    /// once (with the usage, or in the next packet): waiting for it keeps the upstream connection for the next request,
    /// which a transfer dropped mid-body does not. The client's stream has ended by then; only the accounting waits.
    public static var endAwaited: Duration { .seconds(1) }

    /// Polls `ready` (an event source's `nextIfReady`) every 2 ms until it tells an event (`.some(event)`) or the end
    /// (`.some(nil)`); nil when `deadline` passed first or the task was cancelled.
    public static func nextReady(until deadline: ContinuousClock.Instant, _ ready: () throws -> ChatStreamEvent??) async throws -> ChatStreamEvent?? {
        while true {
            if let told = try ready() { return told }
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}
