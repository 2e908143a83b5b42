import FoundationEssentials
import Dispatch
import SkillGateCore
import SkillGateKeys
import Synchronization

/// Authenticating presented token text: the cache first, the store on a miss, and the cache's rules for when an entry
/// still vouches and when it is looked up again ahead of time.
extension TokenService {
    /// The token record for `presented` token text, or nil when it is unknown, revoked, malformed,
    /// or the store cannot be read (failing closed).
    public func authenticate(_ presented: String) -> ClientToken? {
        grant(for: presented)?.token
    }

    /// Authenticates `presented` like `authenticate`, and returns what its request keeps to ask
    /// `isStillValid` later (the digest, never the text).
    public func grant(for presented: String) -> TokenGrant? {
        try? checkedGrant(for: presented)
    }

    /// Like `grant`, but a store that cannot be read (a database that is down) is an error rather than an
    /// unknown token, so the caller can answer 503 instead of 401. Tokens looked up within `cacheLifetime` are
    /// still answered from the cache.
    public func checkedGrant(for presented: String) throws(TokenStoreUnavailable) -> TokenGrant? {
        guard TokenFormat.looksLikeToken(presented) else { return nil }
        let digest = TokenDigest(of: presented)
        let asked = now()
        return try lookupChecked(digest, noteUse: true).map { TokenGrant(token: $0, digest: digest, cachedUntil: asked.addingTimeInterval(cacheLifetime)) }
    }

    /// What the cache alone says about `presented`, without reading the store: for a caller that must not wait on a
    /// database (an event loop), which otherwise asks `checkedGrant` somewhere it may wait. A hit is answered (and
    /// its use noted) as `checkedGrant` would; a malformed token, or one the cache holds as revoked, is refused.
    public func cachedGrant(for presented: String) -> CachedTokenGrant {
        guard TokenFormat.looksLikeToken(presented) else { return .refused }
        let digest = TokenDigest(of: presented)
        guard let answer = cachedAnswer(digest, noteUse: true) else {
            return .notCached(known: state.locked { $0.knownDigests.contains(digest) })
        }
        guard let token = answer.token else { return .refused }
        return .granted(TokenGrant(token: token, digest: digest, cachedUntil: answer.until))
    }

    /// The token of `grant` as the store holds it now (its record may have changed since), or nil when it was revoked:
    /// for a request authenticated at its head and checked again when it runs. The same cached lookup as
    /// `checkedGrant`, without hashing the token text again or noting a second use.
    public func checkedRegrant(_ grant: TokenGrant) throws(TokenStoreUnavailable) -> TokenGrant? {
        let asked = now()
        return try lookupChecked(grant.digest, noteUse: false).map {
            TokenGrant(token: $0, digest: grant.digest, cachedUntil: asked.addingTimeInterval(cacheLifetime))
        }
    }

    /// For a request whose head `grant` admitted, before its handler looks the token up again (`checkedRegrant`) on an
    /// event loop: when the cache no longer vouches for the grant (its entry expired while the body came, or while the
    /// store was held past the cache's lifetime), the token is looked up in the store on a queue of its own, and the
    /// answer cached, so the handler's lookup is a cache hit (decision 0086). Costs a clock read otherwise. A
    /// revocation through this service keeps the revoked record cached, so it needs no store read either. Ask
    /// `cacheNoLongerVouches` first: while the grant is fresh (nearly always) nothing need be awaited.
    public func recacheIfExpired(_ grant: TokenGrant) async {
        guard cacheNoLongerVouches(for: grant), cachedAnswer(grant.digest, noteUse: false) == nil else { return }
        _ = await recheckReads.run { [self] in try? lookupChecked(grant.digest, noteUse: false) }
    }

    /// Whether the cache entry `grant` came from has expired (a clock read), or the wall clock was set back since it
    /// was fetched (the cache then no longer vouches for it either).
    public func cacheNoLongerVouches(for grant: TokenGrant) -> Bool {
        let time = now()
        return time >= grant.cachedUntil || time < grant.cachedUntil.addingTimeInterval(-cacheLifetime)
    }

    private func lookupChecked(_ digest: TokenDigest, noteUse: Bool) throws(TokenStoreUnavailable) -> ClientToken? {
        if let hit = cachedLookup(digest, noteUse: noteUse) { return hit }

        // Miss: ask the store off the lock, so other requests keep authenticating meanwhile.
        let time = now()
        let generation = state.locked { $0.generation }
        let found: StoredClientToken?
        do { found = try store.token(hash: digest.hex) } catch { throw TokenStoreUnavailable(reason: "\(error)") }
        guard let stored = found else { return nil }
        let (token, flush) = state.locked { state in
            cacheFetched(stored, for: digest, at: time, generation: generation, noteUse: noteUse, in: &state)
        }
        if flush { scheduleFlush() }
        return token
    }

    /// Caches the record the store returned for `digest` at `time` (unless a revoke or an invalidation came since
    /// `generation`: then the answer stands for this caller only), noting its use when asked. Returns the token when the
    /// record is accepted (nil: refused), and whether a background last-used flush must start.
    func cacheFetched(_ stored: StoredClientToken, for digest: TokenDigest, at time: Date, generation: UInt64, noteUse: Bool,
                              in state: inout State) -> (token: ClientToken?, scheduleFlush: Bool) {
        var entry = CacheEntry(stored: stored, storedDigest: TokenDigest(hex: stored.hash), fetchedAt: time, lastUsedQueuedAt: state.cache[digest]?.lastUsedQueuedAt)
        let accepted = Self.accepts(entry, digest)
        let flush = accepted && noteUse ? self.noteUse(of: &entry, in: &state, at: time) : (queued: false, schedule: false)
        if accepted { state.noteKnown(digest) }
        if state.generation == generation { state.cache[digest] = entry }
        return (accepted ? entry.stored.token : nil, flush.schedule)
    }

    /// The age of `entry` at `time` while the cache vouches for it: younger than `cacheLifetime`, and not fetched "in
    /// the future" (which means the wall clock was set back: a revocation elsewhere would go unseen for as long as the
    /// clock went back). Nil otherwise. A revoked entry vouches for good, as if just fetched: a revocation is final (no
    /// command takes one back; a token made again under the name has a new text), so a revoked token that keeps being
    /// presented, or an answer of one still under way, costs no store read (decision 0144).
    func vouchingAge(of entry: CacheEntry, at time: Date) -> TimeInterval? {
        if entry.stored.token.isRevoked { return 0 }
        let age = time.timeIntervalSince(entry.fetchedAt)
        return age >= 0 && age < cacheLifetime ? age : nil
    }

    /// The cache's answer for `digest`: nil when it holds no fresh entry, `.some(nil)` when it holds one it refuses
    /// (revoked, or a stored digest that does not match), else the token. One lock, one dictionary lookup; starts a
    /// background lookup when the entry is past half its lifetime, and notes the use when asked.
    func cachedLookup(_ digest: TokenDigest, noteUse: Bool) -> ClientToken?? {
        cachedAnswer(digest, noteUse: noteUse).map(\.token)
    }

    /// What the cache holds for a token: the token (nil: refused) and until when the cache vouches for that answer.
    private struct CachedAnswer {
        let token: ClientToken?
        let until: Date
    }

    /// `cachedLookup` with the moment its entry expires.
    private func cachedAnswer(_ digest: TokenDigest, noteUse: Bool) -> CachedAnswer? {
        let time = now()
        let (hit, generation, flushFromHit, refresh) = state.locked { state -> (CachedAnswer?, UInt64, Bool, Bool) in
            guard var entry = state.cache[digest], let age = vouchingAge(of: entry, at: time) else { return (nil, state.generation, false, false) }
            let until = entry.fetchedAt.addingTimeInterval(cacheLifetime)
            let refresh = age >= cacheLifetime / 2 && state.refreshing.insert(digest).inserted
            guard Self.accepts(entry, digest) else { return (CachedAnswer(token: nil, until: until), state.generation, false, refresh) }
            guard noteUse else { return (CachedAnswer(token: entry.stored.token, until: until), state.generation, false, refresh) }
            let flush = self.noteUse(of: &entry, in: &state, at: time)
            if flush.queued { state.cache[digest] = entry }
            return (CachedAnswer(token: entry.stored.token, until: until), state.generation, flush.schedule, refresh)
        }
        if refresh { refreshAhead(digest, generation: generation) }
        if flushFromHit { scheduleFlush() }
        return hit
    }

    /// Looks `digest` up again in the background and renews its cache entry (unless a revoke or an invalidation came
    /// in between). A store that fails leaves the entry to expire, and the next request after that asks the store
    /// itself (answering 503 when it still fails).
    private func refreshAhead(_ digest: TokenDigest, generation: UInt64) {
        refreshQueue.async { [self] in
            let time = now()
            let found = Result { try store.token(hash: digest.hex) }
            state.locked { state in
                state.refreshing.remove(digest)
                guard case .success(let found) = found, state.generation == generation else { return }
                guard let stored = found else {  // gone from the store: forget it
                    state.cache[digest] = nil
                    return
                }
                state.cache[digest] = CacheEntry(stored: stored, storedDigest: TokenDigest(hex: stored.hash), fetchedAt: time, lastUsedQueuedAt: state.cache[digest]?.lastUsedQueuedAt)
            }
        }
    }

    /// Waits for the background lookups started so far (tests). The caller's thread is not held meanwhile: a lookup
    /// may wait for the store for seconds, and a task that waited on a thread of the shared pool would hold it
    /// (decision 0159).
    func waitForRefreshes() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            refreshQueue.async { done.resume() }
        }
    }

    /// Whether the entry's stored digest is `digest` (compared in constant time) and its token is not revoked.
    static func accepts(_ entry: CacheEntry, _ digest: TokenDigest) -> Bool {
        entry.storedDigest?.matches(digest) == true && !entry.stored.token.isRevoked
    }
}
