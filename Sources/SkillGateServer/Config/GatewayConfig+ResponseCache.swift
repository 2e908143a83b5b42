import SkillGateCore

/// The exact-match response cache (decision 0140): off unless the config turns it on, for the whole gateway
/// (`response_cache`) or per scenario (`scenarios.<name>.response_cache`). Writing either section turns it on where
/// it applies; `"enabled": false` turns it off.
///
/// ```json
/// "response_cache": {"ttl_seconds": 300, "max_mib": 64},
/// "scenarios": {"faq": {"response_cache": {"ttl_seconds": 3600, "coalesce_seconds": 20}}, "agent": {"response_cache": {"enabled": false}}}
/// ```
extension GatewayConfig {
    /// The top-level keys this file reads.
    static let responseCacheKeys: Set<String> = ["response_cache"]

    /// The top-level `response_cache` section: whether scenarios cache by default, for how long, and the memory the
    /// cache may hold (one bound for the whole gateway).
    public struct ResponseCacheSettings: Sendable, Hashable {
        /// Whether a scenario that says nothing caches. True when the section is present (writing it turns the cache
        /// on), false without it.
        public var enabled = false
        /// How long an answer is served again, in seconds, unless its scenario sets its own. Default 300.
        public var ttlSeconds = 300
        /// The most the kept answers hold together, in MiB; past it the least recently used go first. Default 64.
        public var maxMiB = 64
        /// How long a request that misses waits for the answer of an identical request of the same token that is
        /// asking a model right now, in seconds, unless its scenario sets its own; 0 (the default) does not wait
        /// (decision 0172).
        public var coalesceSeconds = 0

        /// `maxMiB` in bytes.
        public var maxBytes: Int { maxMiB << 20 }

        public init() {}
    }

    /// A scenario's `response_cache`: whether its answers are cached (true when the section is written, as for the
    /// top-level one) and for how long (nil: the gateway's time).
    public struct ScenarioResponseCache: Sendable, Hashable {
        public var enabled: Bool
        public var ttlSeconds: Int?
        /// The scenario's `coalesce_seconds` (nil: the gateway's).
        public var coalesceSeconds: Int?

        public init(enabled: Bool = true, ttlSeconds: Int? = nil, coalesceSeconds: Int? = nil) {
            self.enabled = enabled
            self.ttlSeconds = ttlSeconds
            self.coalesceSeconds = coalesceSeconds
        }
    }

    /// The longest `ttl_seconds`: a week. An exact answer kept longer is more likely stale than useful.
    static let maxResponseCacheTTL = 7 * 86_400
    /// The longest `coalesce_seconds`: ten minutes, the default `upstream_timeouts.total_seconds` (by default no answer
    /// takes longer).
    static let maxResponseCacheCoalesce = 600

    /// Reads the top-level `response_cache` (absent: off).
    static func parseResponseCache(_ r: JSONReader) throws(JSONShapeError) -> ResponseCacheSettings {
        var out = ResponseCacheSettings()
        guard let c = try r.optionalObject("response_cache") else { return out }
        try c.rejectUnknownKeys(["enabled", "ttl_seconds", "max_mib", "coalesce_seconds", "$comment"])
        out.enabled = try c.optionalBool("enabled") ?? true
        if let ttl = try parseTTL(c) { out.ttlSeconds = ttl }
        if let wait = try parseCoalesce(c) { out.coalesceSeconds = wait }
        if let v = try c.optionalInt("max_mib") {
            guard v >= 1, v <= 1 << 16 else {
                throw c.error("max_mib", "must be a whole number of MiB from 1 to 65536, like 64; it bounds what the kept answers hold together in memory")
            }
            out.maxMiB = v
        }
        return out
    }

    /// Reads `scenarios.<name>.response_cache`, or nil when absent.
    static func parseScenarioResponseCache(_ s: JSONReader) throws(JSONShapeError) -> ScenarioResponseCache? {
        guard let c = try s.optionalObject("response_cache") else { return nil }
        if c.object["max_mib"] != nil {
            throw c.error("max_mib", "is one bound for the whole gateway: set it in the top-level \"response_cache\", not per scenario")
        }
        try c.rejectUnknownKeys(["enabled", "ttl_seconds", "coalesce_seconds", "$comment"])
        return ScenarioResponseCache(enabled: try c.optionalBool("enabled") ?? true, ttlSeconds: try parseTTL(c),
                                     coalesceSeconds: try parseCoalesce(c))
    }

    private static func parseCoalesce(_ c: JSONReader) throws(JSONShapeError) -> Int? {
        guard let v = try c.optionalInt("coalesce_seconds") else { return nil }
        guard v >= 0, v <= maxResponseCacheCoalesce else {
            throw c.error("coalesce_seconds", "must be a whole number of seconds from 0 to \(maxResponseCacheCoalesce), like 20; a request waits that long at most for an identical request's answer under way (0: it does not wait)")
        }
        return v
    }

    private static func parseTTL(_ c: JSONReader) throws(JSONShapeError) -> Int? {
        guard let v = try c.optionalInt("ttl_seconds") else { return nil }
        guard v >= 1, v <= maxResponseCacheTTL else {
            throw c.error("ttl_seconds", "must be a whole number of seconds from 1 to \(maxResponseCacheTTL) (a week), like 300; an answer older than it is asked for again")
        }
        return v
    }

    /// How long `scenario`'s answers are kept, in seconds, or nil when they are not cached.
    func responseCacheTTL(for scenario: ScenarioConfig) -> Int? {
        guard scenario.responseCache?.enabled ?? responseCache.enabled else { return nil }
        return scenario.responseCache?.ttlSeconds ?? responseCache.ttlSeconds
    }

    /// How long a request of `scenario` that misses waits for an identical request's answer under way, in seconds (0:
    /// it does not wait).
    func responseCacheCoalesceSeconds(for scenario: ScenarioConfig) -> Int {
        scenario.responseCache?.coalesceSeconds ?? responseCache.coalesceSeconds
    }

    /// Whether any scenario caches its answers (the cache exists only then).
    var usesResponseCache: Bool {
        scenarios.values.contains { responseCacheTTL(for: $0) != nil }
    }
}
