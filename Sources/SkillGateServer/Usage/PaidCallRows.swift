import FoundationEssentials
import SkillGateState

/// Writes an agent run's model calls to the usage ledger as each is paid for, not with the run's row at its end
/// (decision 0148). Their tokens and cost go into the ledger's running totals as they are written, so gateways sharing
/// the ledger (one `state_dir`, one PostgreSQL) count a run's spend against its budgets while it goes on, as this
/// gateway does (`RunSpending`); before, another process saw it only when the run ended, and N processes could each
/// spend about a budget on runs under way. The run's row, at its end, adds only what its calls did not count, and the
/// calls written here are not written again.
///
/// While the run goes on, the row it would have if its gateway were killed is kept in the ledger's spool
/// (`LedgerSpool.keepRunUnderWay`, decision 0151), so the next start writes it: the reports by token, scenario and day,
/// which read run rows, then count the calls of a run whose gateway was killed.
struct PaidCallRows: Sendable {
    let ledger: UsageLedger
    /// What the run's rows share: its token, scenario, surface, time and the status sent when the run started.
    let run: UsageRecord
    /// Where the run's row is kept while it goes on; nil: not kept.
    let spool: LedgerSpool?

    /// Queues the rows of `calls`, the run's calls numbered from `firstIndex` (1 for its first), stamped with the time
    /// they are paid for: the running totals count them in the minute and day the gateway running the run counts them
    /// (decision 0150; the run's row keeps the request's time).
    /// `soFar`: all the run's calls paid for (these last), and `skillsRun` the skills that ran, for the row kept in case
    /// the gateway is killed (best effort: a file that cannot be written leaves the run as before 0151).
    func write(_ calls: ArraySlice<ModelCallUsage>, firstIndex: Int, soFar: [ModelCallUsage], skillsRun: [String]) {
        guard !calls.isEmpty else { return }
        var paid = run
        paid.occurredAt = Date()
        ledger.record(calls.enumerated().map { UsageRecord.callRow($1, index: firstIndex + $0, of: paid) })
        if let spool, let key = run.requestId {
            try? spool.keepRunUnderWay(UsageRecord.abandonedRun(of: run, calls: soFar, skillsRun: skillsRun), key: key)
        }
    }
}
