import SkillGateCore

/// A relayed stream's answer, accumulated as it is relayed (after the gateway's own filters: what the client was
/// sent), and kept by `keep` once the stream ended normally. A reference, so a held stream's relay grows by one pointer
/// when the cache is off (decision 0033). Not `Sendable`: it lives in one relay.
final class ResponseCacheWrite {
    let cache: ResponseCache
    let key: ResponseCacheKey
    let ttlSeconds: Int
    /// The fill this stream's request leads (decision 0172): identical requests wait for it until the relay ends.
    let lease: ResponseCacheFillLease?
    private var answer = ChatResponseAccumulator()

    init(cache: ResponseCache, key: ResponseCacheKey, ttlSeconds: Int, lease: ResponseCacheFillLease?) {
        self.cache = cache
        self.key = key
        self.ttlSeconds = ttlSeconds
        self.lease = lease
    }

    /// Adds a relayed event.
    func count(_ event: ChatStreamEvent) { answer.apply(event) }

    /// Keeps the accumulated answer of `target`, when complete. Call only after the stream's end was relayed.
    func keep(from target: RouteTarget) {
        let response = answer.response
        guard ResponseCacheStage.isComplete(response) else { return }
        cache.store(CachedAnswer(response, from: target, at: cache.now()), under: key, ttlSeconds: ttlSeconds)
    }
}
