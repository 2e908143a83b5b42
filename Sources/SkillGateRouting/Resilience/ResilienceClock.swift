/// The time source of retries and cooldowns. Production uses `SystemResilienceClock`; tests inject
/// a clock they advance by hand, so cooldowns and backoff are checked without sleeping.
public protocol ResilienceClock: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }
    /// Waits for `duration` (a retry delay). Throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The monotonic system clock.
public struct SystemResilienceClock: ResilienceClock {
    public init() {}

    public var now: ContinuousClock.Instant { ContinuousClock.now }

    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        try await Task.sleep(for: duration)
    }
}

extension Duration {
    /// The duration in (fractional) seconds.
    public var resilienceSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in (fractional) milliseconds.
    public var resilienceMilliseconds: Double { resilienceSeconds * 1000 }
}
