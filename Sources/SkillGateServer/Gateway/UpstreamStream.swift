import SkillGateCore
import SkillGateRouting

/// A streamed answer committed to one deployment (its first event already arrived). Tool calls
/// are remembered for stickiness as they stream by; the deployment's in-flight count drops when
/// the stream is finished or dropped.
struct UpstreamStream {
    /// The deployment answering.
    let target: RouteTarget
    private var pending: ChatStreamEvent?
    private var started = false
    private var iterator: AsyncThrowingStream<ChatStreamEvent, any Error>.AsyncIterator
    private let lease: CallLease
    private let affinity: ToolCallAffinity

    init(target: RouteTarget, pending: ChatStreamEvent?, iterator: AsyncThrowingStream<ChatStreamEvent, any Error>.AsyncIterator,
         lease: CallLease, affinity: ToolCallAffinity) {
        self.target = target
        self.pending = pending
        self.iterator = iterator
        self.lease = lease
        self.affinity = affinity
    }

    /// The next event (the first one first), or `nil` at the end. Errors are not retried.
    mutating func next() async throws -> ChatStreamEvent? {
        if !started {
            started = true
            if pending == nil { finish() }
            return pending
        }
        do {
            let event = try await iterator.next()
            if event == nil { finish() }
            noteToolCall(event)
            return event
        } catch {
            finish()
            throw error
        }
    }

    /// Releases the deployment's in-flight slot (idempotent).
    func finish() { lease.release() }

    func noteToolCall(_ event: ChatStreamEvent?) {
        if case .toolCallStart(_, let id, _) = event { affinity.remember(id, deployment: target.qualifiedName) }
    }
}
