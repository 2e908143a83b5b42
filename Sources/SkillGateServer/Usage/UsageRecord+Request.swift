import SkillGateCore
import SkillGateState

extension UsageRecord {
    /// The ledger rows of one finished request. A request answered by one model call is one `request` row. A request
    /// that made several model calls is a `run` row with the sums and one `call` row per model call: an agent run's
    /// calls, and a chat whose skills a selector model chose (`skill_ranking.selector`) — its answer, then the
    /// selector's call. So reports by token, scenario and day (which read request and run rows) count every call's
    /// tokens and cost, and the report by model (request and call rows) counts each under the model that spent it.
    /// A request the response cache answered is a `cache_hit` row (decision 0140), with the selector's call as its only
    /// `call` row when a selector chose its skills. Nothing for requests without a token (health checks, 401s).
    /// `admitted`: the request was admitted against its limits (`UsageRecord.admitted`).
    static func rows(for e: RequestLogEntry, outcome: String, admitted: Bool) -> [UsageRecord] {
        guard e.tokenId != nil else { return [] }
        let selection = e.selection.flatMap { $0.usage == nil ? nil : $0 }
        let cacheHit = e.cache == .hit
        let isRun = e.agentIterations != nil || !e.modelCalls.isEmpty || selection != nil
        var row = header(of: e)
        row.provider = e.provider
        row.model = e.model
        row.usage = e.spentUsage ?? Usage()
        row.costMicrodollars = microdollars(e.spentUSD)
        row.durationMilliseconds = Int(e.totalMs.rounded())
        row.outcome = outcome
        row.kind = cacheHit ? .cacheHit : isRun ? .run : .request
        row.admitted = admitted
        row.attempts = 0
        for attempt in e.attemptRecords {
            if case .skipped = attempt.outcome { continue }
            row.attempts += 1
        }
        row.skillsRun = e.skillsRun
        guard isRun else { return [row] }
        var calls = e.modelCalls
        if calls.isEmpty, e.agentIterations == nil, !cacheHit, let model = e.model {
            // A chat's own answer (with an escalated unusable one), beside the selector's call.
            calls.append(ModelCallUsage(provider: e.provider, model: model, usage: e.answersUsage, costUSD: e.answersCostUSD,
                                        upstreamMs: e.upstreamMs ?? 0, attempts: row.attempts, outcome: outcome))
        }
        if let selection, let model = selection.model {
            calls.append(ModelCallUsage(provider: model.split(separator: "/", maxSplits: 1).first.map(String.init), model: model,
                                        usage: selection.usage, costUSD: selection.costUSD, upstreamMs: selection.milliseconds,
                                        attempts: 1, outcome: selection.failureReason ?? "ok"))
        }
        var callRows = calls.enumerated().map { callRow($1, index: $0 + 1, of: row) }
        row.countedByCallRows = sums(of: callRows)
        // An agent run's calls already written as each was paid for (`PaidCallRows`) are not written again.
        callRows.removeFirst(min(e.modelCallsWritten, callRows.count))
        return [row] + callRows
    }

    /// What `callRows` add to the running totals (`countedByCallRows` of their run's row).
    static func sums(of callRows: [UsageRecord]) -> UsageSummary {
        callRows.reduce(into: UsageSummary()) { sum, c in
            sum.inputTokens += c.usage.inputTokens
            sum.outputTokens += c.usage.outputTokens
            sum.costMicrodollars += c.costMicrodollars ?? 0
        }
    }

    /// The row of an agent run whose gateway was killed before the run ended (decision 0151), as it would be written at
    /// the next start: the run's request (`run`, its header) with the sums of the model calls it paid for (`calls`, in
    /// order), the deployment of the last, the skills that ran, and outcome `gateway_gone`. Its calls' rows, written as
    /// each was paid for, count in the running totals already, so it adds only its request there; the reports by token,
    /// scenario and day, which read run rows, count the run.
    static func abandonedRun(of run: UsageRecord, calls: [ModelCallUsage], skillsRun: [String]) -> UsageRecord {
        let callRows = calls.enumerated().map { callRow($1, index: $0 + 1, of: run) }
        var row = run
        row.kind = .run
        row.provider = calls.last?.provider
        row.model = calls.last?.model
        row.usage = callRows.reduce(Usage()) { $0 + $1.usage }
        row.costMicrodollars = callRows.contains { $0.costMicrodollars != nil } ? callRows.reduce(Int64(0)) { $0.clampedAdding($1.costMicrodollars ?? 0) } : nil
        row.durationMilliseconds = callRows.reduce(0) { $0 + $1.durationMilliseconds }
        row.outcome = "gateway_gone"
        row.attempts = callRows.reduce(0) { $0 + $1.attempts }
        row.skillsRun = skillsRun
        row.admitted = true
        row.countedByCallRows = sums(of: callRows)
        return row
    }

    /// A row of request `e` with what all its rows share (its time, token, scenario, surface, stream and the status
    /// sent so far) and nothing of its own yet.
    static func header(of e: RequestLogEntry) -> UsageRecord {
        var row = UsageRecord(occurredAt: e.time, tokenId: e.tokenId, requestId: e.requestId, scenario: e.scenario)
        row.tokenName = e.tokenName
        row.surface = e.surface
        row.stream = e.stream
        row.status = e.status
        return row
    }

    /// The ledger row of model call `index` (1, 2, ...) of the request whose row is `run`: the request's token, scenario,
    /// surface and time, the call's own deployment, usage, cost and outcome. Its tokens and cost count in the running
    /// totals as it is written (`countsInRunningTotals`; the run's row adds only the rest).
    static func callRow(_ call: ModelCallUsage, index: Int, of run: UsageRecord) -> UsageRecord {
        var c = UsageRecord(occurredAt: run.occurredAt, tokenId: run.tokenId, requestId: run.requestId, scenario: run.scenario,
                            provider: call.provider, model: call.model, usage: call.usage ?? Usage(),
                            costMicrodollars: microdollars(call.costUSD), durationMilliseconds: Int(call.upstreamMs.rounded()),
                            outcome: call.outcome)
        c.kind = .call
        c.callIndex = index
        c.tokenName = run.tokenName
        c.surface = run.surface
        c.stream = run.stream
        c.status = run.status
        c.attempts = call.attempts
        c.countsInRunningTotals = true
        return c
    }
}
