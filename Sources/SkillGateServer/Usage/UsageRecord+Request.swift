import SkillGateCore
import SkillGateState

extension UsageRecord {
    /// The ledger rows of one finished request: one `request` row; for an agent run a `run` row with the sums and
    /// one `call` row per model call. Nothing for requests without a token (health checks, 401s).
    static func rows(for e: RequestLogEntry, outcome: String) -> [UsageRecord] {
        guard e.tokenId != nil else { return [] }
        let isRun = e.agentIterations != nil || !e.modelCalls.isEmpty
        var row = UsageRecord(occurredAt: e.time, tokenId: e.tokenId, requestId: e.requestId, scenario: e.scenario, provider: e.provider,
                              model: e.model, usage: e.spentUsage ?? Usage(), costMicrodollars: microdollars(e.spentUSD),
                              durationMilliseconds: Int(e.totalMs.rounded()), outcome: outcome)
        row.kind = isRun ? .run : .request
        row.tokenName = e.tokenName
        row.surface = e.surface
        row.stream = e.stream
        row.status = e.status
        row.attempts = 0
        for attempt in e.attemptRecords {
            if case .skipped = attempt.outcome { continue }
            row.attempts += 1
        }
        row.skillsRun = e.skillsRun
        guard !e.modelCalls.isEmpty else { return [row] }
        var rows = [row]
        rows.reserveCapacity(1 + e.modelCalls.count)
        for (i, call) in e.modelCalls.enumerated() {
            var c = UsageRecord(occurredAt: e.time, tokenId: e.tokenId, requestId: e.requestId, scenario: e.scenario, provider: call.provider,
                                model: call.model, usage: call.usage ?? Usage(), costMicrodollars: microdollars(call.costUSD),
                                durationMilliseconds: Int(call.upstreamMs.rounded()), outcome: call.outcome)
            c.kind = .call
            c.callIndex = i + 1
            c.tokenName = e.tokenName
            c.surface = e.surface
            c.stream = e.stream
            c.status = e.status
            c.attempts = call.attempts
            rows.append(c)
        }
        return rows
    }
}
