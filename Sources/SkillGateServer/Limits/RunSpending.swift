import SkillGateState
import Synchronization

/// An agent run's spend while it runs, counted against its token's and scenario's limits as each model call is paid
/// for, not only when the run's request ends (decisions 0146, 0148). So every run under way, and every new request,
/// sees what the others have spent so far: N runs started together on a nearly spent budget stop after at most one
/// model call each, where before each compared the budget with its own spend only and all of them could spend it
/// whole. The spend goes straight into the subjects' day and month (as a request's release puts it), so the ledger's
/// totals read back, which hold the run's calls too once written (`PaidCallRows`), are not counted on top of it; the
/// request's release then counts only the rest of its cost (`countedMicrodollars`).
final class RunSpending: Sendable {
    private let counters: LimitCounters
    /// The run's subjects with limits: those its request's ticket releases.
    private let subjects: [(LimitSubject, TokenLimits)]
    /// Microdollars this run has counted on its subjects so far.
    private let counted = Mutex<Int64>(0)

    init(counters: LimitCounters, subjects: [(LimitSubject, TokenLimits)]) {
        self.counters = counters
        self.subjects = subjects
    }

    /// Counts the run's spend so far (`spentUSD`, all its model calls) on its subjects, and returns the message of a
    /// budget that what was spent before, this run included, has used up; nil while each has some left.
    func usedUp(afterSpending spentUSD: Double) -> String? {
        guard !subjects.isEmpty else { return nil }
        let total = max(0, UsageRecord.microdollars(spentUSD) ?? 0)
        let delta = counted.withLock { counted -> Int64 in
            defer { counted = max(counted, total) }
            return max(0, total - counted)
        }
        return counters.addSpent(delta, on: subjects)?.message
    }

    /// Microdollars of the run's spend counted so far: its request's release (`AccountStage`) counts only the rest.
    var countedMicrodollars: Int64 { counted.withLock { $0 } }
}
