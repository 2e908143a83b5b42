import SkillGateCore
import SkillGateRouting
import Synchronization

/// What the model calls of one agent run did, for the request's log line (collected from the
/// `@Sendable` model-call closure, which cannot write the handler's `inout` context).
final class AgentRunRecord: Sendable {
    struct State: Sendable {
        var attempts: [String] = []
        var provider: String?
        var model: String?
        var upstreamMs = 0.0
        var escalations = 0
        var escalatedBecause: String?
    }

    private let state = Mutex(State())

    var snapshot: State { state.withLock { $0 } }

    /// Takes what the execute stage wrote for one model call (attempts, deployment, upstream time).
    func absorb(_ call: RequestLogEntry) {
        state.withLock { s in
            s.attempts += call.attempts
            s.provider = call.provider ?? s.provider
            s.model = call.model ?? s.model
            s.upstreamMs += call.upstreamMs ?? 0
        }
    }

    func escalated(_ because: String?) {
        state.withLock { s in
            s.escalations += 1
            s.escalatedBecause = because ?? "unusable"
        }
    }

    /// Copies the record and the outcome into the log entry.
    func apply(to log: inout RequestLogEntry, outcome: AgentOutcome?) {
        let s = snapshot
        log.attempts += s.attempts
        log.provider = s.provider ?? log.provider
        log.model = s.model ?? log.model
        log.upstreamMs = s.upstreamMs
        log.escalations += s.escalations
        if let because = s.escalatedBecause { log.skills?.escalatedBecause = because }
        if let outcome {
            log.usage = outcome.response.usage
            log.costUSD = outcome.costUSD
            log.agentIterations = outcome.iterations
            log.skillsRun = outcome.skillsRun
        }
    }
}
