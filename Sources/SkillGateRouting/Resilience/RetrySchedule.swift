import SkillGateCore

/// Decides, attempt by attempt, which deployment of a plan to call next and how long to wait
/// first. A pure state machine: the caller supplies the time and reports failures.
///
/// Rounds walk the deployments in order. A failed deployment is not called again before its
/// backoff (exponential with jitter, by its failures in this request) or its Retry-After has
/// passed, whichever is later; the next deployment is tried at once. Nothing is attempted, and no
/// wait ends, past the deadline; no single wait exceeds `maxWait`; a round in which nothing could be
/// attempted ends the request.
public struct RetrySchedule: Sendable {
    /// Why a deployment was passed over.
    public enum SkipReason: Sendable, Hashable, CustomStringConvertible {
        /// Its breaker is open for `remaining`.
        case coolingDown(remaining: Duration)
        /// The wait it asked for (Retry-After or backoff) ends after the deadline or exceeds `maxWait`.
        case waitTooLong(Duration)

        public var description: String {
            switch self {
            case .coolingDown(let r): "cooling down, \(Int(r.resilienceSeconds.rounded(.up))) s left"
            case .waitTooLong(let w): "would wait \(Int(w.resilienceMilliseconds.rounded())) ms, past the deadline or the longest wait"
            }
        }
    }

    /// The next thing to do.
    public enum Step: Sendable, Hashable {
        /// Wait `wait`, then call the deployment at `index`.
        case attempt(index: Int, wait: Duration)
        /// The deployment at `index` is passed over (reported once per reason); ask again.
        case skip(index: Int, reason: SkipReason)
        /// Stop: the deadline, the attempt budget or the deployments are exhausted.
        case giveUp
    }

    public let order: [Int]
    public let policy: RetryPolicy
    /// No attempt starts after this instant.
    public let deadline: ContinuousClock.Instant
    /// Attempts handed out so far.
    public private(set) var attempts = 0
    private var position = 0
    private var attemptedThisRound = false
    private var failures: [Int: Int] = [:]
    private var notBefore: [Int: ContinuousClock.Instant] = [:]
    private var excluded: Set<Int> = []
    private var reported: Set<String> = []

    /// - Parameters:
    ///   - order: indices of the plan's deployments, first preferred.
    ///   - start: when the request began (the deadline counts from here).
    public init(order: [Int], policy: RetryPolicy, start: ContinuousClock.Instant) {
        self.order = order
        self.policy = policy
        deadline = start + policy.deadline
    }

    /// The next step at `now`. `admit` is asked just before a deployment would be attempted and
    /// returns a reason to skip it (a cooldown) or `nil` to go ahead.
    public mutating func next(now: ContinuousClock.Instant, admit: (Int) -> SkipReason?) -> Step {
        guard !order.isEmpty else { return .giveUp }
        while attempts < policy.maxAttempts {
            if position == order.count {
                if !attemptedThisRound { return .giveUp }
                position = 0
                attemptedThisRound = false
            }
            let index = order[position]
            position += 1
            if excluded.contains(index) { continue }
            let ready = notBefore[index] ?? now
            let wait = ready > now ? ready - now : .zero
            if now + wait > deadline || wait > policy.maxWait {
                if wait > .zero, let step = reportOnce(index, .waitTooLong(wait)) { return step }
                continue
            }
            if let reason = admit(index) {
                if let step = reportOnce(index, reason) { return step }
                continue
            }
            attempts += 1
            attemptedThisRound = true
            return .attempt(index: index, wait: wait)
        }
        return .giveUp
    }

    /// Reports that the attempt on `index` failed at `now` with a retryable `error`.
    public mutating func failed(_ index: Int, error: GatewayError, now: ContinuousClock.Instant, unitRandom: Double) {
        let count = (failures[index] ?? 0) + 1
        failures[index] = count
        var wait = policy.backoff(afterFailures: count, unitRandom: unitRandom)
        if let retryAfter = error.retryAfter, retryAfter > 0 {
            wait = max(wait, .nanoseconds(Int64((min(retryAfter, 86_400) * 1e9).rounded())))
        }
        notBefore[index] = now + wait
    }

    /// Takes one more attempt of the budget for a call outside the rounds (the same deployment again at once with
    /// another of its provider's keys, after one was refused): false, taking nothing, when the attempt budget is spent
    /// or the deadline has passed. `max_attempts` bounds every upstream call of a request, key swaps included.
    public mutating func takeImmediateAttempt(now: ContinuousClock.Instant) -> Bool {
        guard attempts < policy.maxAttempts, now < deadline else { return false }
        attempts += 1
        return true
    }

    /// Never tries `index` again in this request (its failure does not depend on time: a missing key).
    public mutating func exclude(_ index: Int) {
        excluded.insert(index)
    }

    private mutating func reportOnce(_ index: Int, _ reason: SkipReason) -> Step? {
        let tag: String
        switch reason {
        case .coolingDown: tag = "\(index):cool"
        case .waitTooLong: tag = "\(index):deadline"
        }
        return reported.insert(tag).inserted ? .skip(index: index, reason: reason) : nil
    }
}
