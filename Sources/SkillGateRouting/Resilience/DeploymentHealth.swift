import Synchronization

/// Shared health of every deployment (`provider/model`): consecutive failures, cooldowns with a
/// half-open probe, and calls in flight (for least-in-flight balancing).
///
/// A deployment that fails `cooldownAfterFailures` times in a row (retryable failures only) is
/// skipped for `cooldown`. When the cooldown has passed, exactly one request is admitted as a probe:
/// its success closes the breaker, its failure starts a new cooldown. A probe that never reports
/// (a cancelled request) is forgotten after another `cooldown`, so a deployment cannot stay stuck.
public final class DeploymentHealth: Sendable {
    /// What a request may do with a deployment now.
    public enum Admission: Sendable, Hashable {
        /// Healthy: call it.
        case open
        /// The cooldown is over: this request is the one probe; report its outcome.
        case probe
        /// Skip it; it may be tried again after `remaining`.
        case coolingDown(remaining: Duration)
    }

    /// A deployment's state, for diagnostics and tests.
    public struct Snapshot: Sendable, Hashable {
        public var consecutiveFailures: Int
        public var cooledUntil: ContinuousClock.Instant?
        public var probing: Bool
        public var inFlight: Int
    }

    private struct Entry {
        var failures = 0
        var cooledUntil: ContinuousClock.Instant?
        var probeStarted: ContinuousClock.Instant?
        var inFlight = 0
    }

    private let state = Mutex<[String: Entry]>([:])
    private let failureThreshold: Int
    private let cooldown: Duration
    /// The clock cooldowns are measured with.
    public let clock: any ResilienceClock

    /// - Parameters:
    ///   - failureThreshold: consecutive retryable failures that start a cooldown (0 = never cool down).
    ///   - cooldown: how long a cooled-down deployment is skipped.
    public init(failureThreshold: Int, cooldown: Duration, clock: any ResilienceClock = SystemResilienceClock()) {
        self.failureThreshold = failureThreshold
        self.cooldown = cooldown
        self.clock = clock
    }

    /// Whether a request may call `deployment` now. `.probe` is granted to one caller at a time.
    public func admit(_ deployment: String) -> Admission {
        let now = clock.now
        return state.withLock { all -> Admission in
            guard var e = all[deployment], let until = e.cooledUntil else { return .open }
            if now < until { return .coolingDown(remaining: until - now) }
            if let started = e.probeStarted, now < started + cooldown {
                return .coolingDown(remaining: started + cooldown - now)
            }
            e.probeStarted = now
            all[deployment] = e
            return .probe
        }
    }

    /// How long `deployment` will still be skipped (`nil` when `admit` would let a request through),
    /// without granting a probe.
    public func remainingCooldown(_ deployment: String) -> Duration? {
        let now = clock.now
        return state.withLock { all -> Duration? in
            guard let e = all[deployment], let until = e.cooledUntil else { return nil }
            if now < until { return until - now }
            if let started = e.probeStarted, now < started + cooldown { return started + cooldown - now }
            return nil
        }
    }

    /// The deployment answered (any non-retryable outcome): closes its breaker.
    public func recordSuccess(_ deployment: String) {
        state.withLock { all in
            // One lookup, and no write for a deployment that was healthy (the common case, on every answer).
            guard let i = all.index(forKey: deployment) else { return }
            let e = all.values[i]
            guard e.failures != 0 || e.cooledUntil != nil || e.probeStarted != nil else { return }
            all.values[i].failures = 0
            all.values[i].cooledUntil = nil
            all.values[i].probeStarted = nil
        }
    }

    /// A retryable failure of the deployment; may start (or restart, after a failed probe) a cooldown.
    public func recordFailure(_ deployment: String) {
        let now = clock.now
        state.withLock { all in
            var e = all[deployment] ?? Entry()
            e.failures += 1
            let wasProbe = e.probeStarted != nil
            e.probeStarted = nil
            if failureThreshold > 0, wasProbe || e.failures >= failureThreshold {
                e.cooledUntil = now + cooldown
            }
            all[deployment] = e
        }
    }

    /// A probe ended without telling anything about the deployment (cancelled, caller error):
    /// the next request may probe again.
    public func releaseProbe(_ deployment: String) {
        state.withLock { all in all[deployment]?.probeStarted = nil }
    }

    /// A call to `deployment` started; pair with `endCall`.
    public func beginCall(_ deployment: String) {
        state.withLock { all in all[deployment, default: Entry()].inFlight += 1 }
    }

    /// A call to `deployment` ended (its answer was relayed, or it failed).
    public func endCall(_ deployment: String) {
        state.withLock { all in
            guard let i = all.index(forKey: deployment) else { return }
            all.values[i].inFlight = max(0, all.values[i].inFlight - 1)
        }
    }

    /// Calls in flight to `deployment`.
    public func inFlight(_ deployment: String) -> Int {
        state.withLock { $0[deployment]?.inFlight ?? 0 }
    }

    /// Calls in flight to each of `deployments`, read under one lock.
    public func inFlight(_ deployments: [String]) -> [Int] {
        state.withLock { all in deployments.map { all[$0]?.inFlight ?? 0 } }
    }

    /// The current state of `deployment`.
    public func snapshot(_ deployment: String) -> Snapshot {
        state.withLock { all in
            let e = all[deployment] ?? Entry()
            return Snapshot(consecutiveFailures: e.failures, cooledUntil: e.cooledUntil, probing: e.probeStarted != nil, inFlight: e.inFlight)
        }
    }
}
