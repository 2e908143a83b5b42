import SkillGateCore
import SkillGateState

/// The last stage, once the answer is out (or failed): the limits ticket is released with the request's tokens and
/// cost, the metrics count it, the usage ledger queues its rows (written in batches off the request path), and the
/// log line is written.
struct AccountStage: Sendable {
    let log: RequestLog
    /// Nil when `ledger.enabled` is false.
    let ledger: UsageLedger?
    let limits: LimitCounters
    let metrics: GatewayMetrics
    /// The console's live Traffic tail (chat and agent requests only).
    let traffic: TrafficBroadcaster
    /// Watches the answers under way for their token's revocation (decision 0141); each is let go here.
    let revocations: RevocationWatch

    /// Called once per request. A whole reply the responder holds (`HTTPResponder.respond`) is sent once the request's
    /// limit slot is free and its usage rows and log line are queued, so a client that has its answer can send the next
    /// request within its limits and find it in a usage report and the log (`GatewayServer.flushLog`); the metrics and
    /// the traffic tail follow.
    /// The writer of an agent run's call rows as each call is paid for (decision 0148); nil without a ledger or a token.
    func paidCallRows(for e: RequestLogEntry) -> PaidCallRows? {
        guard let ledger, e.tokenId != nil else { return nil }
        return PaidCallRows(ledger: ledger, run: UsageRecord.header(of: e), spool: ledger.spool)
    }

    func account(_ ctx: inout RequestContext) {
        ctx.log.totalMs = ctx.elapsedMs
        let outcome = ctx.log.outcome
        // Admitted against its limits: counted as a request in the ledger's running totals as in the live counts.
        let admitted = ctx.limitTicket != nil
        if let ticket = ctx.limitTicket {
            // What an agent run's spend counted while it went on is counted once (decisions 0148, 0150).
            let cost = max(0, (UsageRecord.microdollars(ctx.log.spentUSD) ?? 0).clampedAdding(-ctx.log.spendCountedInLimits))
            let tokens = max(0, Int64(ctx.log.spentUsage?.totalTokens ?? 0).clampedAdding(-ctx.log.tokensCountedInLimits))
            limits.release(ticket, tokens: Int(tokens), costMicrodollars: cost)
            ctx.limitTicket = nil
        }
        ledger?.record(UsageRecord.rows(for: ctx.log, outcome: outcome, admitted: admitted))
        // The run's own row is queued: the one kept in case the gateway were killed goes (decision 0151).
        if ctx.log.modelCallsWritten > 0 { ledger?.spool?.dropRunUnderWay(key: ctx.log.requestId) }
        log.write(ctx.log)
        ctx.responder.releaseReply()
        if ctx.inFlight {
            metrics.ended(stream: ctx.log.stream)
            revocations.unwatch(ctx.responder)
            ctx.inFlight = false
        }
        if ctx.log.surface != nil { metrics.finished(ctx.log, outcome: outcome) }
        if ctx.log.surface != nil { traffic.publish(TrafficEvent(ctx.log)) }
    }
}
