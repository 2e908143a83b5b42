import SkillGateCore
import SkillGateRouting
import Synchronization

/// What the model calls of one agent run did, for the request's log line (collected from the
/// `@Sendable` model-call closure, which cannot write the handler's `inout` context).
final class AgentRunRecord: Sendable {
    struct State: Sendable {
        var attempts: [AttemptLogItem] = []
        var provider: String?
        var model: String?
        var upstreamMs = 0.0
        var escalations = 0
        var escalatedBecause: String?
        var attemptRecords: [AttemptRecord] = []
        /// The usage ledger's `call` rows, in order: one per model call, under the model that answered it (or was tried
        /// last), preceded by one per other deployment that spent something in the call (its failed attempts, an
        /// escalated unusable answer; decision 0123).
        var calls: [ModelCallUsage] = []
        /// How many of `calls` were written to the ledger as they were paid for (`PaidCallRows`).
        var callsWritten = 0
        /// What the run's spend counted against its limits while it went on (`RunSpending`): microdollars and tokens.
        var countedInLimits: (microdollars: Int64, tokens: Int64) = (0, 0)
        /// How many model calls the run made.
        var callCount = 0
        /// The server-side skills that ran, in order (a failed run keeps them too).
        var skillsRun: [String] = []
        /// Whether a call's usage was estimated (its stream ended before the provider reported it; decision 0104).
        var usageEstimated = false
        /// What the calls' answers used and cost (each call's answer, without what it spent before it).
        var answeredUsage = Usage()
        var answeredCostUSD = 0.0
        /// What the calls spent on answers that were not the call's answer (decision 0120): failed attempts that were
        /// tried again (decision 0117) and unusable answers that were escalated. Counted by the ledger, budgets and
        /// metrics beside the answers', as for a chat request.
        var unusableUsage: Usage?
        var unusableCostUSD: Double?
    }

    private let state = Mutex(State())
    /// Where each call's rows go as it is paid for; nil: with the run's row at its end.
    private let paidCalls: PaidCallRows?

    init(paidCalls: PaidCallRows? = nil) {
        self.paidCalls = paidCalls
    }

    var snapshot: State { state.locked { $0 } }

    /// What the run's calls spent so far on answers that were not their answer (failed attempts, escalated unusable
    /// answers), in US dollars: added to the answers' spend when the run checks its budgets between calls.
    var unusableCostUSD: Double { state.locked { $0.unusableCostUSD ?? 0 } }

    /// Takes what the execute stage wrote for one model call (attempts, deployment, upstream time, and what it spent:
    /// its answer's usage, and in `unusableUsage` its failed attempts' and an escalated unusable answer's).
    func absorb(_ call: RequestLogEntry) {
        let paid = state.locked { s -> (calls: [ModelCallUsage], first: Int, skillsRun: [String])? in
            Self.absorb(call, into: &s)
            guard paidCalls != nil, s.callsWritten < s.calls.count else { return nil }
            defer { s.callsWritten = s.calls.count }
            return (s.calls, s.callsWritten + 1, s.skillsRun)
        }
        if let paidCalls, let paid {
            paidCalls.write(paid.calls[(paid.first - 1)...], firstIndex: paid.first, soFar: paid.calls, skillsRun: paid.skillsRun)
        }
    }

    /// Notes what `RunSpending` counted against the run's limits while it went on (the request's release counts the rest).
    func countedInLimits(_ counted: (microdollars: Int64, tokens: Int64)) {
        state.locked { $0.countedInLimits = counted }
    }

    /// The tokens the run's calls used so far: their answers' and what they spent besides (failed attempts, escalated
    /// answers), as the request's release counts them.
    var spentTokens: Int {
        state.locked { s in s.answeredUsage.totalTokens.clampedAdding(s.unusableUsage?.totalTokens ?? 0) }
    }

    /// Adds one model call's attempts, deployment, time and spend to `s`.
    private static func absorb(_ call: RequestLogEntry, into s: inout State) {
        s.attempts += call.attempts
        s.provider = call.provider ?? s.provider
        s.model = call.model ?? s.model
        s.upstreamMs += call.upstreamMs ?? 0
        s.attemptRecords += call.attemptRecords
        s.usageEstimated = s.usageEstimated || call.usageEstimated
        if let u = call.unusableUsage { s.unusableUsage = (s.unusableUsage ?? Usage()) + u }
        if let c = call.unusableCostUSD { s.unusableCostUSD = (s.unusableCostUSD ?? 0) + c }
        guard let model = call.model else { return }
        s.callCount += 1
        if let u = call.usage { s.answeredUsage = s.answeredUsage + u }
        s.answeredCostUSD += call.costUSD ?? 0
        let made = call.attemptRecords.filter { if case .skipped = $0.outcome { false } else { true } }.count
        s.calls += Self.rows(of: call, model: model, attemptsMade: made)
    }

    /// The ledger's call rows of one model call: all it spent, each part under the deployment that spent it (decision
    /// 0123) — its answer and the failed attempts on the same deployment under the model that answered (or was tried
    /// last), with the call's time and its other attempts; each other deployment's failed attempts (or escalated unusable
    /// answer) in a row of its own before it, at that deployment's price.
    static func rows(of call: RequestLogEntry, model: String, attemptsMade: Int) -> [ModelCallUsage] {
        var answering = ModelCallUsage(provider: call.provider, model: model, usage: call.usage, costUSD: call.costUSD,
                                       upstreamMs: call.upstreamMs ?? 0, attempts: attemptsMade, outcome: call.errorKind?.rawValue ?? "ok")
        var rows: [ModelCallUsage] = []
        for spent in call.unusableSpend {
            guard spent.model == model else {
                rows.append(spent)
                answering.attempts = max(0, answering.attempts - spent.attempts)
                continue
            }
            if let u = spent.usage { answering.usage = (answering.usage ?? Usage()) + u }
            if let c = spent.costUSD { answering.costUSD = (answering.costUSD ?? 0) + c }
        }
        rows.append(answering)
        return rows
    }

    /// Notes that skill `name` ran (`AgentLoop.skillRan`).
    func skillRan(_ name: String) {
        state.locked { $0.skillsRun.append(name) }
    }

    func escalated(_ because: String?) {
        state.locked { s in
            s.escalations += 1
            s.escalatedBecause = because ?? "unusable"
        }
    }

    /// Copies the record and the outcome into the log entry: the answers' usage (the outcome's, or the calls' of a failed
    /// run) as its usage, what the calls spent besides as its unusable usage.
    func apply(to log: inout RequestLogEntry, outcome: AgentOutcome?) {
        let s = snapshot
        log.attempts += s.attempts
        log.provider = s.provider ?? log.provider
        log.model = s.model ?? log.model
        log.upstreamMs = s.upstreamMs
        log.escalations += s.escalations
        log.attemptRecords += s.attemptRecords
        log.modelCalls = s.calls
        log.modelCallsWritten = s.callsWritten
        log.spendCountedInLimits = s.countedInLimits.microdollars
        log.tokensCountedInLimits = s.countedInLimits.tokens
        log.usageEstimated = log.usageEstimated || s.usageEstimated
        if let because = s.escalatedBecause { log.skills?.escalatedBecause = because }
        if let outcome {
            log.usage = outcome.response.usage
            log.costUSD = outcome.costUSD
            log.agentIterations = outcome.iterations
            log.skillsRun = outcome.skillsRun
        } else if !s.calls.isEmpty {
            // A failed run still spent what its model calls cost: the ledger and budgets count it.
            log.usage = s.answeredUsage
            log.costUSD = s.answeredCostUSD
            log.agentIterations = s.callCount
        }
        // Set, not added: a run whose last event could not be sent is applied again as failed.
        log.unusableUsage = s.unusableUsage
        log.unusableCostUSD = s.unusableCostUSD
        if outcome == nil {
            // The skills that ran before the run failed: their side effects happened (a webhook, a note).
            log.skillsRun = s.skillsRun
        }
    }
}
