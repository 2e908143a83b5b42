/// Progress of `skillgate eval skills` when a selector model is asked: one chat call per request, seconds each with
/// a local model, so a run over a split takes minutes. Every 25 requests (and after the last) a line (on stderr) says
/// how far it got, how many calls gave no usable answer, and the time so far; the report on stdout is unchanged.
public final class SelectorProgress {
    public let total: Int
    /// A progress line every this many requests.
    public let every: Int
    public private(set) var done = 0
    public private(set) var failed = 0
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let write: (String) -> Void

    /// `write` takes each progress line (the CLI: stderr).
    public init(total: Int, every: Int = 25, write: @escaping (String) -> Void) {
        self.total = total
        self.every = max(1, every)
        self.write = write
        start = clock.now
    }

    /// Counts one ranked request (`failed`: the selector gave no usable answer) and reports when due.
    public func ranked(failed wasFailed: Bool) {
        done += 1
        if wasFailed { failed += 1 }
        guard done % every == 0 || done == total else { return }
        let seconds = Int((clock.now - start).components.seconds)
        write("selector: \(done) of \(total) requests ranked, \(failed) without a usable answer, \(seconds) s so far")
    }
}
