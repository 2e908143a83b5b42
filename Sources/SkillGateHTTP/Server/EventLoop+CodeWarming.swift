/// Code warming on the loop thread (decisions 0054, 0055). A blocking turn notes when it began to wait; the first
/// callback of each phase in the turn prefetches that phase's hot code when the wait was long enough for the core to
/// lose it and the loop has not run that phase for a while. A request warmed that way also has its answer's code
/// warmed while the loop waits for the upstream, off the request's critical path.
extension EventLoop {
    /// The loop is about to block in its poll.
    func startedSleeping() {
        sleepStartedAt = MonotonicClock.nanoseconds()
        warmingDecided = 0
    }

    /// Called before a request's head (`.request`) and an upstream answer's first bytes (`.answer`) are handled; warms
    /// each phase at most once a turn.
    func warmCodeIfSlept(_ phase: HotCodeTable.Phase) {
        let bit: UInt8 = 1 << phase.index
        guard let warmer = configuration.codeWarmer, warmingDecided & bit == 0 else { return }
        warmingDecided |= bit
        let now = MonotonicClock.nanoseconds()
        let lastSeen = phase == .request ? requestCodeSeenAt : answerCodeSeenAt
        if phase == .request { requestCodeSeenAt = now } else { answerCodeSeenAt = now }
        guard now &- sleepStartedAt >= configuration.codeWarmingAfterSleep.clampedNanoseconds,
              now &- lastSeen >= configuration.codeRewarmAfter.clampedNanoseconds else { return }
        warmer.warm(phase)
        shared.counters.codeWarmings.add(1, ordering: .relaxed)
        if phase == .request { answerWarmingDue = true }
    }

    /// Between turns, after a request that was warmed for: once its upstream transfer is in flight, the loop has
    /// nothing to do until the answer comes, so it prefetches the answer's code now instead of when the first bytes
    /// arrive. A request that never goes upstream leaves it due for the next one.
    func warmAnswerCodeWhileWaiting() {
        guard let warmer = configuration.codeWarmer, curlLanes.values.contains(where: { $0.transferCount > 0 }) else { return }
        answerWarmingDue = false
        answerCodeSeenAt = MonotonicClock.nanoseconds()
        warmer.warm(.answer)
        shared.counters.codeWarmingsAhead.add(1, ordering: .relaxed)
    }
}
