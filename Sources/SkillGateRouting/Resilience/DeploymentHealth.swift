import Synchronization

/// Shared health of every deployment (`provider/model`): consecutive failures, cooldowns with a
/// half-open probe, and calls in flight (for least-in-flight balancing).
///
/// A deployment that fails `cooldownAfterFailures` times in a row (retryable failures only) is
/// skipped for `cooldown`. When the cooldown has passed, exactly one request is admitted as a probe:
/// its success closes the breaker, its failure starts a new cooldown. A probe that never reports
/// (a cancelled request) is forgotten after another `cooldown`, so a deployment cannot stay stuck.
///
/// Failures are attributed to the caller (the client token) whose request failed (decision 0115). While
/// every failure of the run came from one caller, the cooldown holds for that caller only: one token's
/// requests that the provider cannot serve (too large, malformed in a way only the provider sees) must not
/// take the deployment from everyone. Failures of two callers, or of calls with no caller (the gateway's
/// own), cool the deployment for all.
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
        /// Callers the deployment is cooling down for alone (their requests failed it, no one else's did).
        public var cooledCallers: Int
    }

    /// Callers that failed a deployment in the current run of failures: whether it is one caller or more is all that
    /// matters, so at most one name is kept.
    private enum FailingCallers {
        case none
        case one(String)
        case several
    }

    /// A cooldown and its probe.
    private struct Cooldown {
        var until: ContinuousClock.Instant
        var probeStarted: ContinuousClock.Instant?
    }

    private struct Entry {
        var failures = 0
        var failingCallers = FailingCallers.none
        var cooledUntil: ContinuousClock.Instant?
        var probeStarted: ContinuousClock.Instant?
        var inFlight = 0
        /// Cooldowns of single callers (bounded by `maxCooledCallers`).
        var cooledCallers: [String: Cooldown] = [:]
        /// The version of the key the provider refused when that refusal was the last failure (nil: another failure).
        var refusedKeyVersion: Int?

        var isHealthy: Bool {
            failures == 0 && cooledUntil == nil && probeStarted == nil && cooledCallers.isEmpty && refusedKeyVersion == nil
        }
    }

    /// More callers cooled down alone than this is no longer one caller's problem: the deployment cools for all.
    public static let maxCooledCallers = 64

    private let state = Mutex<[String: Entry]>([:])
    /// Deployments whose last failure was a refused key (`recordFailure(keyVersion:)`), so the common request skips
    /// `forgiveRenewedKey` without a lock.
    private let keyRefusals = Atomic<Int>(0)
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

    /// Whether a request of `caller` (nil: none known) may call `deployment` now. `.probe` is granted to one caller
    /// at a time.
    public func admit(_ deployment: String, caller: String? = nil) -> Admission {
        let now = clock.now
        return state.locked { all -> Admission in
            guard let i = all.index(forKey: deployment) else { return .open }
            if let until = all.values[i].cooledUntil {
                if now < until { return .coolingDown(remaining: until - now) }
                if let started = all.values[i].probeStarted, now < started + cooldown {
                    return .coolingDown(remaining: started + cooldown - now)
                }
                all.values[i].probeStarted = now
                return .probe
            }
            guard let caller, let own = all.values[i].cooledCallers[caller] else { return .open }
            if now < own.until { return .coolingDown(remaining: own.until - now) }
            if let started = own.probeStarted, now < started + cooldown { return .coolingDown(remaining: started + cooldown - now) }
            all.values[i].cooledCallers[caller]?.probeStarted = now
            return .probe
        }
    }

    /// How long `deployment` will still be skipped for `caller` (`nil` when `admit` would let its request through),
    /// without granting a probe.
    public func remainingCooldown(_ deployment: String, caller: String? = nil) -> Duration? {
        let now = clock.now
        return state.locked { all -> Duration? in
            guard let e = all[deployment] else { return nil }
            if let until = e.cooledUntil {
                if now < until { return until - now }
                if let started = e.probeStarted, now < started + cooldown { return started + cooldown - now }
                return nil
            }
            guard let caller, let own = e.cooledCallers[caller] else { return nil }
            if now < own.until { return own.until - now }
            if let started = own.probeStarted, now < started + cooldown { return started + cooldown - now }
            return nil
        }
    }

    /// The deployment answered `caller` (any non-retryable outcome): closes its breaker, and the caller's own.
    public func recordSuccess(_ deployment: String, caller: String? = nil) {
        state.locked { all in
            // One lookup, and no write for a deployment that was healthy (the common case, on every answer).
            guard let i = all.index(forKey: deployment), !all.values[i].isHealthy else { return }
            all.values[i].failures = 0
            all.values[i].failingCallers = .none
            all.values[i].cooledUntil = nil
            all.values[i].probeStarted = nil
            if all.values[i].refusedKeyVersion != nil {
                all.values[i].refusedKeyVersion = nil
                keyRefusals.subtract(1, ordering: .relaxed)
            }
            // Another caller's success leaves a caller cooled alone as it is (its own requests are what failed) until
            // that cooldown ends; the caller's next failures then start a run of their own.
            if let caller { all.values[i].cooledCallers[caller] = nil }
            if !all.values[i].cooledCallers.isEmpty {
                let now = clock.now
                all.values[i].cooledCallers = all.values[i].cooledCallers.filter { now < $0.value.until || $0.value.probeStarted != nil }
            }
        }
    }

    /// A retryable failure of the deployment on a request of `caller` (nil: the failure is the deployment's whatever
    /// the request, such as a refused key); may start (or restart, after a failed probe) a cooldown, for `caller`
    /// alone while the run's failures are all its own. `keyVersion`: the failure was the provider refusing the key
    /// whose secret has this version (`forgiveRenewedKey`).
    public func recordFailure(_ deployment: String, caller: String? = nil, keyVersion: Int? = nil) {
        let now = clock.now
        state.locked { all in
            var e = all[deployment] ?? Entry()
            e.failures += 1
            switch (e.failingCallers, caller) {
            case (.none, .some(let c)): e.failingCallers = .one(c)
            case (.one(let c), .some(let d)) where c == d: break
            default: e.failingCallers = .several
            }
            if (e.refusedKeyVersion == nil) != (keyVersion == nil) { keyRefusals.add(keyVersion == nil ? -1 : 1, ordering: .relaxed) }
            e.refusedKeyVersion = keyVersion
            let wasProbe = e.probeStarted != nil
            e.probeStarted = nil
            var callerWasProbing = false
            if let caller, e.cooledCallers[caller]?.probeStarted != nil {
                callerWasProbing = true
                e.cooledCallers[caller]?.probeStarted = nil
            }
            if failureThreshold > 0, wasProbe || callerWasProbing || e.failures >= failureThreshold {
                if case .one(let only) = e.failingCallers, !wasProbe, e.cooledUntil == nil,
                   Self.makeRoom(in: &e.cooledCallers, for: only, now: now) {
                    e.cooledCallers[only] = Cooldown(until: now + cooldown)
                } else {
                    e.cooledUntil = now + cooldown
                }
            }
            all[deployment] = e
        }
    }

    /// Whether a caller cooldown for `caller` fits (expired ones are dropped to make room).
    private static func makeRoom(in cooled: inout [String: Cooldown], for caller: String, now: ContinuousClock.Instant) -> Bool {
        if cooled[caller] != nil || cooled.count < maxCooledCallers { return true }
        cooled = cooled.filter { now < $0.value.until }
        return cooled.count < maxCooledCallers
    }

    /// A probe ended without telling anything about the deployment (cancelled, caller error):
    /// the next request (of `caller`, when the probe was its own) may probe again.
    public func releaseProbe(_ deployment: String, caller: String? = nil) {
        state.locked { all in
            guard let i = all.index(forKey: deployment) else { return }
            if let caller, all.values[i].cooledCallers[caller]?.probeStarted != nil {
                all.values[i].cooledCallers[caller]?.probeStarted = nil
            } else {
                all.values[i].probeStarted = nil
            }
        }
    }

    /// The version of the refused key when `deployment`'s last failure was its key being refused; nil otherwise.
    public func refusedKeyVersion(_ deployment: String) -> Int? {
        guard keyRefusals.load(ordering: .relaxed) > 0 else { return nil }
        return state.locked { $0[deployment]?.refusedKeyVersion }
    }

    /// Closes `deployment`'s breaker when its last failure was the provider refusing a key whose secret has since
    /// changed (`currentKeyVersion` differs from the refused one): the operator set a new secret, and waiting out the
    /// old one's cooldown would only delay it (decision 0115). Returns whether it did.
    @discardableResult
    public func forgiveRenewedKey(_ deployment: String, currentKeyVersion: Int) -> Bool {
        guard keyRefusals.load(ordering: .relaxed) > 0 else { return false }
        return state.locked { all in
            guard let i = all.index(forKey: deployment), let refused = all.values[i].refusedKeyVersion,
                  refused != currentKeyVersion else { return false }
            all.values[i].failures = 0
            all.values[i].failingCallers = .none
            all.values[i].cooledUntil = nil
            all.values[i].probeStarted = nil
            all.values[i].refusedKeyVersion = nil
            keyRefusals.subtract(1, ordering: .relaxed)
            return true
        }
    }

    /// A call to `deployment` started; pair with `endCall`.
    public func beginCall(_ deployment: String) {
        state.locked { all in all[deployment, default: Entry()].inFlight += 1 }
    }

    /// A call to `deployment` ended (its answer was relayed, or it failed).
    public func endCall(_ deployment: String) {
        state.locked { all in
            guard let i = all.index(forKey: deployment) else { return }
            all.values[i].inFlight = max(0, all.values[i].inFlight - 1)
        }
    }

    /// Calls in flight to `deployment`.
    public func inFlight(_ deployment: String) -> Int {
        state.locked { $0[deployment]?.inFlight ?? 0 }
    }

    /// Calls in flight to each of `deployments`, read under one lock.
    public func inFlight(_ deployments: [String]) -> [Int] {
        state.locked { all in deployments.map { all[$0]?.inFlight ?? 0 } }
    }

    /// The current state of `deployment`.
    public func snapshot(_ deployment: String) -> Snapshot {
        let now = clock.now
        return state.locked { all in
            let e = all[deployment] ?? Entry()
            return Snapshot(consecutiveFailures: e.failures, cooledUntil: e.cooledUntil, probing: e.probeStarted != nil, inFlight: e.inFlight,
                            cooledCallers: e.cooledCallers.values.count { now < $0.until || $0.probeStarted != nil })
        }
    }
}
