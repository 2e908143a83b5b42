import SkillGateCore
import SkillGateHTTP

/// The response cache as the pipeline uses it (decision 0140): the prepare stage decides how a request uses it
/// (`use`), the chat encoding looks its answer up before any model call (`lookUp`) and keeps a complete answer that
/// passed the answer checks (`keep`, or `ResponseCacheWrite` for a relayed stream). Without a cache (no scenario caches)
/// or for a scenario that does not cache, it does nothing: no header is read, no key is hashed.
struct ResponseCacheStage: Sendable {
    /// Nil when no scenario caches.
    let cache: ResponseCache?
    /// Each caching scenario's time to live, in seconds.
    let ttlSeconds: [String: Int]
    /// Each caching scenario's `coalesce_seconds` (0: a miss does not wait for an identical request's answer).
    let coalesceSeconds: [String: Int]

    init(cache: ResponseCache?, config: GatewayConfig) {
        self.cache = cache
        var ttls: [String: Int] = [:], waits: [String: Int] = [:]
        if cache != nil {
            for (name, scenario) in config.scenarios {
                if let ttl = config.responseCacheTTL(for: scenario) {
                    ttls[name] = ttl
                    waits[name] = config.responseCacheCoalesceSeconds(for: scenario)
                }
            }
        }
        ttlSeconds = ttls
        coalesceSeconds = waits
    }

    /// How a request of `client` in `scenario` uses the cache, once its tools were cut and its route planned: nil when
    /// the scenario does not cache. `cacheable` is false for answers that are not a model's alone (the agent surface,
    /// server-side skills visible). Reads `x-skillgate-cache` and `Cache-Control` (a 400 for a value the first does not
    /// take; `max-age` above 0 bounds a served answer's age), and notes `refresh` and `bypass` in the log line.
    func use(scenario: String, tokenId: String, request: ChatRequest, plan: RoutePlan, escalation: RoutePlan?, cacheable: Bool,
             headers: HTTPHeaders, _ log: inout RequestLogEntry) throws(GatewayError) -> ResponseCacheUse? {
        guard let cache, let ttl = ttlSeconds[scenario] else { return nil }
        let (directive, maxAge) = try ResponseCacheDirective.read(headers)
        guard cacheable, directive != .noStore else {
            log.cache = .bypass
            cache.countSkipped(refresh: false)
            return .bypass
        }
        let key = ResponseCacheKey(tokenId: tokenId, scenario: scenario, plan: plan, escalation: escalation, request: request)
        guard directive == .use else {
            log.cache = .refresh
            cache.countSkipped(refresh: true)
            return .refresh(key, ttlSeconds: ttl)
        }
        return .lookUp(key, ttlSeconds: ttl, maxAgeSeconds: maxAge, coalesceSeconds: coalesceSeconds[scenario] ?? 0)
    }

    /// What looking a request's answer up found.
    enum Found {
        /// The kept answer.
        case hit(CachedAnswer)
        /// None: the request asks a model. `lease` is set when it leads the fill of its key (requests that coalesce
        /// wait for it): keep it until the answer was kept, or the request ended without one.
        case miss(lease: ResponseCacheFillLease?)
        /// None yet, but an identical request of the same token is asking a model: wait for `fill` up to `bound`, then
        /// look again (`afterWaiting`).
        case wait(ResponseCacheFill, bound: Duration)
    }

    /// The kept answer to `call`, when it may be looked up and is there (and no older than the request's `max-age`): the
    /// log line says `hit` and the entry's age; otherwise `miss` when it was looked up. When the scenario coalesces
    /// (`coalesce_seconds`) and an identical request of the same token is asking a model, says to wait for its answer
    /// first; a request that finds none under way is the one the next identical requests wait for (decision 0172).
    func lookUp(_ call: PreparedCall, _ log: inout RequestLogEntry) -> Found {
        guard let cache, case .lookUp(let key, _, let maxAge, let coalesce) = call.cache else { return .miss(lease: nil) }
        if let hit = cache.lookup(key, maxAgeSeconds: maxAge, countingAMiss: coalesce == 0) { return .hit(found(hit, cache, &log)) }
        guard coalesce > 0 else {
            log.cache = .miss
            return .miss(lease: nil)
        }
        switch cache.fills.claim(key) {
        case .lead(let lease):
            cache.countMiss()
            log.cache = .miss
            return .miss(lease: lease)
        case .follow(let fill):
            return .wait(fill, bound: .seconds(coalesce))
        }
    }

    /// After a wait of `waited` for an identical request's answer (`Found.wait`): the answer, if it was kept, or a miss
    /// (it failed, was not complete, its client left, or it took longer than the wait), and this request asks a model
    /// itself. The log line has the wait (`cache_wait_ms`).
    func afterWaiting(_ waited: Duration, _ call: PreparedCall, _ log: inout RequestLogEntry) -> CachedAnswer? {
        guard let cache, case .lookUp(let key, _, let maxAge, _) = call.cache else { return nil }
        log.cacheWaitMs = waited.inMilliseconds
        let hit = cache.lookup(key, maxAgeSeconds: maxAge)
        cache.countWait(found: hit != nil)
        if let hit { return found(hit, cache, &log) }
        log.cache = .miss
        return nil
    }

    private func found(_ hit: CachedAnswer, _ cache: ResponseCache, _ log: inout RequestLogEntry) -> CachedAnswer {
        log.cache = .hit
        log.cacheAgeSeconds = hit.age(at: cache.now())
        log.provider = hit.target.provider.id
        log.model = hit.target.qualifiedName
        return hit
    }

    /// Keeps `response`, the whole answer `target` gave to `call` and that passed the answer checks, when the call may
    /// write the cache and the answer is complete (`isComplete`).
    func keep(_ response: ChatResponse, from target: RouteTarget, for call: PreparedCall) {
        guard let cache, let write = call.cache?.write, Self.isComplete(response) else { return }
        cache.store(CachedAnswer(response, from: target, at: cache.now()), under: write.key, ttlSeconds: write.ttlSeconds)
    }

    /// What a relayed stream of `call` needs to keep its answer once it ended, or nil when it may not write the cache.
    /// `lease`: the fill the request leads (`lookUp`), held by the relay until the stream's end was kept.
    func write(for call: PreparedCall, lease: ResponseCacheFillLease?) -> ResponseCacheWrite? {
        guard let cache, let write = call.cache?.write else { return nil }
        return ResponseCacheWrite(cache: cache, key: write.key, ttlSeconds: write.ttlSeconds, lease: lease)
    }

    /// Whether `response` is an answer worth serving again: one the model finished (`stop`, `length`, `tool_calls`, or a
    /// refusal it wrote). Not a content filter's cut, a paused turn, nor an end the gateway does not know (a stream
    /// without its finish reason is `.other("missing")`).
    static func isComplete(_ response: ChatResponse) -> Bool {
        switch response.finishReason {
        case .stop, .length, .toolCalls, .refusal: true
        case .contentFilter, .pauseTurn, .other: false
        }
    }
}
