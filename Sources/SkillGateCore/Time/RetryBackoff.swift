/// How long a background writer waits before it tries a failed write again: its usual interval while writes work, then
/// twice as long after each failure in a row, up to `maximum`, and the usual interval again after a success.
///
/// A store that keeps failing at once (a full disk, a read-only file system) would otherwise be tried every batch
/// interval — forty times a second for the usage ledger — each try a warning in a log that is often on the full disk
/// itself; and one that fails slowly (another process holding SQLite's write lock) would have its connection held by
/// the writer nearly all the time (decision 0097).
public struct RetryBackoff: Sendable {
    /// The wait while writes work.
    public let interval: Duration
    /// The longest wait after failures.
    public let maximum: Duration
    /// Failures in a row so far.
    public private(set) var failures = 0

    /// - Parameters:
    ///   - interval: the wait while writes work (the writer's batch interval).
    ///   - maximum: the longest wait after failures; never below `interval`.
    public init(interval: Duration, maximum: Duration = .seconds(5)) {
        self.interval = interval
        self.maximum = max(interval, maximum)
    }

    /// The wait before the next try.
    public var wait: Duration {
        guard failures > 0 else { return interval }
        var wait = max(interval, .milliseconds(1))
        for _ in 0..<min(failures, 62) {
            wait *= 2
            if wait >= maximum { return maximum }
        }
        return wait
    }

    /// A write failed: the wait grows.
    public mutating func failed() {
        failures += 1
    }

    /// A write worked: back to `interval`.
    public mutating func succeeded() {
        failures = 0
    }
}
