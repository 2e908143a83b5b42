import SkillGateCore
import SkillGateProviders
import SkillGateRouting

extension GatewayConfig {
    /// The `resilience` section: retries, deadline, backoff, cooldowns, load balancing, stickiness.
    ///
    /// ```json
    /// "resilience": {
    ///   "max_attempts": 4, "deadline_seconds": 120, "max_wait_seconds": 5,
    ///   "backoff": {"initial_ms": 250, "max_ms": 4000},
    ///   "cooldown": {"after_failures": 3, "seconds": 30},
    ///   "balance": "ordered", "weights": {"openai/gpt-6.1-terra": 3},
    ///   "sticky_tool_calls": 10000
    /// }
    /// ```
    public struct Resilience: Sendable, Hashable {
        /// Upstream calls per request at most (first attempt included). Default 4.
        public var maxAttempts = 4
        /// Total time for attempts and waits before the first byte reached the client. Default 120 s.
        public var deadlineSeconds = 120.0
        /// First backoff before a deployment is tried again; doubles per failure. Default 250 ms.
        public var backoffInitialMs = 250.0
        /// Largest backoff (before jitter). Default 4000 ms.
        public var backoffMaxMs = 4000.0
        /// Longest single wait (a longer Retry-After is passed on to the client instead). Default 5 s.
        public var maxWaitSeconds = 5.0
        /// Consecutive retryable failures that cool a deployment down (0 = never). Default 3.
        public var cooldownAfterFailures = 3
        /// How long a cooled-down deployment is skipped. Default 30 s.
        public var cooldownSeconds = 30.0
        /// How the deployments of a plan are ordered. Default `ordered` (tier order).
        public var balance = BalanceStrategy.ordered
        /// `provider/model` → weight for `weighted` balancing (unlisted: 1).
        public var weights: [String: Double] = [:]
        /// Tool-call ids remembered for stickiness (0 = off). Default 10000.
        public var stickyToolCalls = 10_000

        public init() {}

        /// The retry policy these settings describe.
        public var policy: RetryPolicy {
            RetryPolicy(maxAttempts: maxAttempts, deadline: .milliseconds(Int64((deadlineSeconds * 1000).rounded())),
                        backoffInitial: .milliseconds(Int64(backoffInitialMs.rounded())),
                        backoffMax: .milliseconds(Int64(backoffMaxMs.rounded())),
                        maxWait: .milliseconds(Int64((maxWaitSeconds * 1000).rounded())),
                        cooldownAfterFailures: cooldownAfterFailures,
                        cooldown: .milliseconds(Int64((cooldownSeconds * 1000).rounded())))
        }

        /// The load balancer these settings describe.
        public var balancer: LoadBalancer { LoadBalancer(strategy: balance, weights: weights) }
    }

    /// Reads the `resilience` object (`nil` = all defaults).
    static func parseResilience(_ r: JSONReader?) throws(JSONShapeError) -> Resilience {
        var out = Resilience()
        guard let r else { return out }
        try r.rejectUnknownKeys(["max_attempts", "deadline_seconds", "max_wait_seconds", "backoff", "cooldown", "balance", "weights", "sticky_tool_calls", "$comment"])
        if let v = try r.optionalInt("max_attempts") {
            guard (1...20).contains(v) else { throw r.error("max_attempts", "must be between 1 and 20 (upstream calls per request)") }
            out.maxAttempts = v
        }
        if let v = try r.optionalDouble("deadline_seconds") {
            guard v > 0 else { throw r.error("deadline_seconds", "must be a positive number of seconds") }
            out.deadlineSeconds = v
        }
        out.maxWaitSeconds = try nonNegative(r, "max_wait_seconds") ?? out.maxWaitSeconds
        if let b = try r.optionalObject("backoff") {
            try b.rejectUnknownKeys(["initial_ms", "max_ms"])
            out.backoffInitialMs = try nonNegative(b, "initial_ms") ?? out.backoffInitialMs
            out.backoffMaxMs = try nonNegative(b, "max_ms") ?? out.backoffMaxMs
            guard out.backoffMaxMs >= out.backoffInitialMs else {
                throw b.error("max_ms", "must be at least initial_ms (\(out.backoffInitialMs))")
            }
        }
        if let c = try r.optionalObject("cooldown") {
            try c.rejectUnknownKeys(["after_failures", "seconds"])
            if let v = try c.optionalInt("after_failures") {
                guard v >= 0 else { throw c.error("after_failures", "must be 0 (never cool down) or a positive count") }
                out.cooldownAfterFailures = v
            }
            out.cooldownSeconds = try nonNegative(c, "seconds") ?? out.cooldownSeconds
        }
        if let name = try r.optionalEnum("balance", BalanceStrategy.allCases.map(\.rawValue)) {
            out.balance = BalanceStrategy(rawValue: name) ?? .ordered
        }
        if let w = try r.optionalObject("weights") {
            for m in w.object {
                guard let v = try w.optionalDouble(m.key), v > 0 else {
                    throw w.error(m.key, "expected a positive weight (a number, e.g. 3)")
                }
                out.weights[m.key] = v
            }
        }
        if let v = try r.optionalInt("sticky_tool_calls") {
            guard v >= 0 else { throw r.error("sticky_tool_calls", "must be 0 (off) or the number of tool-call ids to remember") }
            out.stickyToolCalls = v
        }
        return out
    }

    private static func nonNegative(_ r: JSONReader, _ key: String) throws(JSONShapeError) -> Double? {
        guard let v = try r.optionalDouble(key) else { return nil }
        guard v >= 0 else { throw r.error(key, "must not be negative") }
        return v
    }

    /// Checks that every weighted deployment exists in the catalog (a typo would silently weigh 1).
    func validateResilience(against catalog: ProviderCatalog) throws(JSONShapeError) {
        for name in resilience.weights.keys.sorted() where catalog.resolve(name) == nil {
            throw JSONShapeError(file: sourceFile, path: "$.resilience.weights.\(name)",
                                 message: "\"\(name)\" is not a provider/model in the catalog (\(providersDirectory)); run `skillgate providers` to list them")
        }
    }
}
