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

    init(cache: ResponseCache?, config: GatewayConfig) {
        self.cache = cache
        var ttls: [String: Int] = [:]
        if cache != nil {
            for (name, scenario) in config.scenarios {
                if let ttl = config.responseCacheTTL(for: scenario) { ttls[name] = ttl }
            }
        }
        ttlSeconds = ttls
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
        return .lookUp(key, ttlSeconds: ttl, maxAgeSeconds: maxAge)
    }

    /// The kept answer to `call`, when it may be looked up and is there (and no older than the request's `max-age`): the
    /// log line says `hit` and the entry's age; otherwise `miss` when it was looked up.
    func lookUp(_ call: PreparedCall, _ log: inout RequestLogEntry) -> CachedAnswer? {
        guard let cache, case .lookUp(let key, _, let maxAge) = call.cache else { return nil }
        guard let hit = cache.lookup(key, maxAgeSeconds: maxAge) else {
            log.cache = .miss
            return nil
        }
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
    func write(for call: PreparedCall) -> ResponseCacheWrite? {
        guard let cache, let write = call.cache?.write else { return nil }
        return ResponseCacheWrite(cache: cache, key: write.key, ttlSeconds: write.ttlSeconds)
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
