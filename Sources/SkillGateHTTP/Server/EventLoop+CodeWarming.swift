/// Code warming on the loop thread (decision 0054): a blocking turn notes when it began to wait, and the first
/// request-path callback of the turn prefetches the hot code when the wait was long enough for the core to lose it.
extension EventLoop {
    /// The loop is about to block in its poll.
    func startedSleeping() {
        sleepStartedAt = MonotonicClock.nanoseconds()
        warmingDecided = false
    }

    /// Called before a request's head and an upstream answer's first bytes are handled; warms at most once a turn.
    func warmCodeIfSlept() {
        guard let warmer = configuration.codeWarmer, !warmingDecided else { return }
        warmingDecided = true
        guard MonotonicClock.nanoseconds() &- sleepStartedAt >= configuration.codeWarmingAfterSleep.clampedNanoseconds else { return }
        warmer.warm()
        shared.counters.codeWarmings.add(1, ordering: .relaxed)
    }
}
