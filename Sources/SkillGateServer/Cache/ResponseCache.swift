import FoundationEssentials
import Synchronization

/// The exact-match response cache (decision 0140): complete answers kept in memory by `ResponseCacheKey` (the client
/// token and the SHA-256 of the request as the model sees it), each until its scenario's time to live, the least
/// recently used evicted past `response_cache.max_mib`. One per gateway, only when some scenario caches. Thread-safe:
/// a lookup or a store is one short lock.
final class ResponseCache: Sendable {
    /// The counters `/metrics` shows.
    struct Statistics: Sendable, Equatable {
        var hits = 0
        var misses = 0
        /// Requests that skipped the lookup and kept their fresh answer (`x-skillgate-cache: refresh`, `Cache-Control:
        /// no-cache`).
        var refreshes = 0
        /// Requests that neither read nor wrote the cache (`no-store`, server-side skills).
        var bypasses = 0
        var stores = 0
        /// Requests that waited for an identical request's answer (`coalesce_seconds`, decision 0172), by whether they
        /// found it kept after the wait.
        var waitsHit = 0
        var waitsMissed = 0
        /// Entries evicted because the cache was over its bound.
        var evictions = 0
        /// Entries removed because their time was up.
        var expirations = 0
        /// Entries and bytes held (read from the entries when the statistics are asked for).
        var entries = 0
        var bytes = 0
    }

    private struct State {
        var entries: ResponseCacheEntries
        var statistics = Statistics()
    }

    private let state: Mutex<State>
    /// The gateway's wall clock (tests move their own).
    let now: @Sendable () -> Date
    /// The answers being fetched now, for the requests that coalesce (decision 0172).
    let fills = ResponseCacheFills()

    init(maxBytes: Int, now: @escaping @Sendable () -> Date) {
        state = Mutex(State(entries: ResponseCacheEntries(maxBytes: max(1, maxBytes))))
        self.now = now
    }

    /// The answer kept under `key`, if still valid and, when `maxAgeSeconds` is given, no older than that (a hit);
    /// else nil (a miss, counted unless `countingAMiss` is false: a request that may still wait for an identical
    /// request's answer counts once it knows, `countMiss`). An answer too old for this request stays for others; the
    /// fresh one replaces it.
    func lookup(_ key: ResponseCacheKey, maxAgeSeconds: Int? = nil, countingAMiss: Bool = true) -> CachedAnswer? {
        let time = now()
        let missed = countingAMiss ? 1 : 0
        return state.locked { s -> CachedAnswer? in
            switch s.entries.find(key, at: time) {
            case .hit(let answer) where maxAgeSeconds.map({ answer.age(at: time) > $0 }) ?? false:
                s.statistics.misses += missed
                return nil
            case .hit(let answer):
                s.statistics.hits += 1
                return answer
            case .expired:
                s.statistics.expirations += 1
                s.statistics.misses += missed
                return nil
            case .none:
                s.statistics.misses += missed
                return nil
            }
        }
    }

    /// Counts a miss that `lookup` left uncounted.
    func countMiss() {
        state.locked { $0.statistics.misses += 1 }
    }

    /// Counts a request that waited for an identical request's answer, by whether it found it.
    func countWait(found: Bool) {
        state.locked { s in
            if found { s.statistics.waitsHit += 1 } else { s.statistics.waitsMissed += 1 }
        }
    }

    /// Keeps `answer` under `key` for `ttlSeconds`.
    func store(_ answer: CachedAnswer, under key: ResponseCacheKey, ttlSeconds: Int) {
        let time = answer.storedAt
        let expires = time.addingTimeInterval(Double(ttlSeconds))
        state.locked { s in
            let (kept, removed) = s.entries.keep(answer, under: key, until: expires, now: time)
            if kept { s.statistics.stores += 1 }
            s.statistics.evictions += removed.evicted
            s.statistics.expirations += removed.expired
        }
    }

    /// Counts a request that refreshed (`refresh`) or bypassed the cache.
    func countSkipped(refresh: Bool) {
        state.locked { s in
            if refresh { s.statistics.refreshes += 1 } else { s.statistics.bypasses += 1 }
        }
    }

    /// The counters, with the entries and bytes held now.
    var statistics: Statistics {
        state.locked { s in
            var statistics = s.statistics
            statistics.entries = s.entries.count
            statistics.bytes = s.entries.bytes
            return statistics
        }
    }
}
