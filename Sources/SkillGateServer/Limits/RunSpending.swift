import SkillGateState
import Synchronization

/// An agent run's spend while it runs, counted against its token's and scenario's limits as each model call is paid
/// for, not only when the run's request ends (decisions 0146, 0148, 0150). So every run under way, and every new
/// request, sees what the others have spent so far: N runs started together on a nearly spent budget stop after at most
/// one model call each, where before each compared the budget with its own spend only and all of them could spend it
/// whole.
///
/// - The spend and tokens go straight into the subjects' day, month and minute (as a request's release puts them), so
///   the ledger's totals read back, which hold the run's calls too once written (`PaidCallRows`), are not counted on
///   top of them; the request's release then counts only the rest (`counted`).
/// - Before each check the counts are read again from the ledger when a second old (`LimitCounters.refreshForRun`), so
///   runs in other processes sharing the state are seen though no new request comes to start a read.
/// - The subjects' limits are asked for at each check (`subjects`): a budget lowered or added while the run goes on (by
///   `skillgate tokens update` in any process, seen within the token cache's lifetime) stops it at its next check.
final class RunSpending: Sendable {
    private let counters: LimitCounters
    /// The run's subjects with limits, as they are now: those its request's ticket releases, with the token's current
    /// limits.
    private let subjects: @Sendable () -> [(LimitSubject, TokenLimits)]
    /// Microdollars and tokens this run has counted on its subjects so far.
    private let reported = Mutex<(microdollars: Int64, tokens: Int64)>((0, 0))

    init(counters: LimitCounters, subjects: @escaping @Sendable () -> [(LimitSubject, TokenLimits)]) {
        self.counters = counters
        self.subjects = subjects
    }

    /// Counts the run's spend so far (`spentUSD` and `tokens`, all its model calls) on its subjects, and returns the
    /// message of a budget that what was spent before, this run included, has used up; nil while each has some left.
    func usedUp(afterSpending spentUSD: Double, tokens: Int) async -> String? {
        let checks = subjects()
        guard !checks.isEmpty else { return nil }
        await counters.refreshForRun(checks)
        let total = (microdollars: max(0, UsageRecord.microdollars(spentUSD) ?? 0), tokens: Int64(max(0, tokens)))
        let delta = reported.locked { reported -> (Int64, Int64) in
            defer { reported = (max(reported.microdollars, total.microdollars), max(reported.tokens, total.tokens)) }
            return (max(0, total.microdollars - reported.microdollars), max(0, total.tokens - reported.tokens))
        }
        return counters.addSpent(delta.0, tokens: delta.1, on: checks)?.message
    }

    /// Microdollars and tokens of the run's spend counted so far: its request's release (`AccountStage`) counts only the
    /// rest.
    var counted: (microdollars: Int64, tokens: Int64) { reported.locked { $0 } }
}
