/// At most `limit` starts in any `window` (a sliding window over the instants of the last starts): the
/// examples writer's `max_per_hour`. Not thread-safe on its own; the writer keeps it under its lock.
struct WriteAllowance {
    let limit: Int
    let window: Duration
    private var starts: [ContinuousClock.Instant] = []

    init(limit: Int, window: Duration) {
        self.limit = max(1, limit)
        self.window = window
    }

    /// Takes one start at `now` if the window has room and returns `nil`; otherwise takes nothing and
    /// returns when the oldest start leaves the window (then there is room again).
    mutating func take(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        starts.removeAll { now - $0 >= window }
        guard starts.count >= limit else {
            starts.append(now)
            return nil
        }
        return starts[0] + window
    }
}
