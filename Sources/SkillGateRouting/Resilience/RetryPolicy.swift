/// How hard a request tries before it gives up: attempts, total deadline, backoff between
/// attempts on the same deployment, and when a failing deployment is cooled down.
public struct RetryPolicy: Sendable, Hashable {
    /// Upper bound on upstream calls per request (first attempt included).
    public var maxAttempts: Int
    /// No attempt starts, and no wait ends, later than this after the request began.
    public var deadline: Duration
    /// The first backoff before a deployment is tried again in the same request.
    public var backoffInitial: Duration
    /// The largest backoff (before jitter).
    public var backoffMax: Duration
    /// The longest single wait a request sits through. A deployment asking for more (Retry-After)
    /// is passed over; when nothing else is left, its 429 reaches the client with the Retry-After.
    public var maxWait: Duration
    /// Consecutive retryable failures after which a deployment is cooled down (0 = never).
    public var cooldownAfterFailures: Int
    /// How long a cooled-down deployment is skipped before one probe request may try it.
    public var cooldown: Duration

    public init(maxAttempts: Int = 4, deadline: Duration = .seconds(120), backoffInitial: Duration = .milliseconds(250),
                backoffMax: Duration = .seconds(4), maxWait: Duration = .seconds(5), cooldownAfterFailures: Int = 3,
                cooldown: Duration = .seconds(30)) {
        self.maxAttempts = max(1, maxAttempts)
        self.deadline = deadline
        self.backoffInitial = backoffInitial
        self.backoffMax = max(backoffInitial, backoffMax)
        self.maxWait = maxWait
        self.cooldownAfterFailures = max(0, cooldownAfterFailures)
        self.cooldown = cooldown
    }

    /// The wait before trying a deployment again after its `failures`-th failure in this request:
    /// exponential (`initial · 2^(failures-1)`, capped at `backoffMax`) with "equal jitter": a
    /// uniformly random value in [half, full] of that, from `unitRandom` in [0, 1).
    public func backoff(afterFailures failures: Int, unitRandom: Double) -> Duration {
        guard failures > 0 else { return .zero }
        let cap = backoffMax.resilienceSeconds
        var seconds = backoffInitial.resilienceSeconds
        for _ in 1..<min(failures, 64) where seconds < cap { seconds *= 2 }
        seconds = min(seconds, cap)
        let jittered = seconds * (0.5 + 0.5 * min(max(unitRandom, 0), 1))
        return .nanoseconds(Int64((jittered * 1e9).rounded()))
    }
}
