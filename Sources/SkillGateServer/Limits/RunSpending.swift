import SkillGateState
import Synchronization

/// An agent run's spend while it runs, counted against its token's and scenario's budgets as each model call is paid
/// for, not only when the run's request ends (decision 0146). So every run under way, and every new request, sees what
/// the others have spent so far: N runs started together on a nearly spent budget stop after at most one model call each,
/// where before each compared the budget with its own spend only and all of them could spend it whole.
final class RunSpending: Sendable {
    private let counters: LimitCounters
    /// The run's subjects that have a budget; none: nothing to count.
    private let budgeted: [(LimitSubject, TokenLimits)]
    /// Microdollars this run has added to its subjects' `spending` so far.
    private let reported = Mutex<Int64>(0)

    init(counters: LimitCounters, budgeted: [(LimitSubject, TokenLimits)]) {
        self.counters = counters
        self.budgeted = budgeted
    }

    /// Counts the run's spend so far (`spentUSD`, all its model calls) on its budgets, and returns the message of a budget
    /// that what was spent before, what runs under way (this one included) have spent, has used up; nil while each has
    /// some left.
    func usedUp(afterSpending spentUSD: Double) -> String? {
        guard !budgeted.isEmpty else { return nil }
        let total = spentUSD.isFinite && spentUSD > 0 ? Int64(min(spentUSD * 1e6, 9e18).rounded(.up)) : 0
        let delta = reported.withLock { reported -> Int64 in
            defer { reported = max(reported, total) }
            return max(0, total - reported)
        }
        return counters.addSpending(delta, on: budgeted)?.message
    }

    /// Takes the run's spend back out of `spending`: the run is over, and its request's ticket is about to be released
    /// with its whole cost. Safe to call more than once.
    func settle() {
        guard !budgeted.isEmpty else { return }
        let total = reported.withLock { reported -> Int64 in
            defer { reported = 0 }
            return reported
        }
        if total > 0 { _ = counters.addSpending(-total, on: budgeted) }
    }
}
