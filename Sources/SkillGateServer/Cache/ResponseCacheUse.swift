/// How one request uses the response cache, decided by the prepare stage once the scenario, the tools shown and the
/// route are known (decision 0140). A request whose scenario does not cache has none.
enum ResponseCacheUse: Sendable {
    /// Neither read nor written: the request asked not to be cached (`no-store`), or its answer is not a model's
    /// alone (server-side skills, `/v1/agent`: skills have side effects).
    case bypass
    /// Looked up (an answer older than `maxAgeSeconds`, when the request gave one, counts as missing); on a miss, the
    /// complete answer is kept for `ttlSeconds`. With `coalesceSeconds` above 0, a miss while an identical request is
    /// asking a model waits up to that long for its answer (decision 0172).
    case lookUp(ResponseCacheKey, ttlSeconds: Int, maxAgeSeconds: Int?, coalesceSeconds: Int)
    /// Not looked up (`refresh`, `Cache-Control: no-cache`); the fresh complete answer is kept for `ttlSeconds`.
    case refresh(ResponseCacheKey, ttlSeconds: Int)

    /// Where and for how long a complete answer is kept; nil when it is not.
    var write: (key: ResponseCacheKey, ttlSeconds: Int)? {
        switch self {
        case .bypass: nil
        case .lookUp(let key, let ttl, _, _), .refresh(let key, let ttl): (key, ttl)
        }
    }
}

/// What the cache did for a request: the reply's `x-skillgate-cache` and the log line's `cache`.
enum ResponseCacheOutcome: String, Sendable {
    /// Answered from the cache (after waiting for an identical request's answer, when the log line has
    /// `cache_wait_ms`).
    case hit
    /// Looked up and not found: the answer came from a model (and is kept when complete).
    case miss
    /// Not looked up, on the request's word; the fresh answer is kept when complete.
    case refresh
    /// Neither read nor written.
    case bypass
}
