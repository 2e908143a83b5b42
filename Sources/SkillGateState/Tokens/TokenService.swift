import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateKeys
import Synchronization

/// Issues, checks and revokes SkillGate client tokens over a `StateStore`.
///
/// Token text is shown once (returned by `create`) and stored only as its SHA-256 hash.
/// `authenticate` hashes the presented text, finds the record by hash (in memory when cached, else
/// in the store) and confirms it with a constant-time comparison of the hashes.
///
/// The cache holds found tokens for `cacheLifetime`, so revocations made by another process (the
/// CLI next to a running server) take effect within that time; revocations through this service
/// take effect at once (the revoked record replaces the cached one). `invalidateCache()` drops every entry.
///
/// A token in use is looked up again ahead of time, off the request path: the first request that finds its
/// entry past half its lifetime starts one background lookup and is answered from the cache. So a busy token
/// never makes a request wait on the store (with PostgreSQL, a round trip behind whatever the ledger writer is
/// doing on the shared connection), and a revocation elsewhere still shows within `cacheLifetime`: an entry older
/// than that is never used. A revoked entry is kept for good: revocation is final.
public final class TokenService: Sendable {
    private struct CacheEntry {
        var stored: StoredClientToken
        /// `stored.hash` read back into a digest (nil when the store's text is not 64 hex digits: never accepted).
        let storedDigest: TokenDigest?
        var fetchedAt: Date
        /// When a last-used time was last queued for this token.
        var lastUsedQueuedAt: Date?
    }

    private struct State {
        var cache: [TokenDigest: CacheEntry] = [:]
        var pendingLastUsed: [String: Date] = [:]
        var flushScheduled = false
        /// Bumped by revoke and invalidate, so a lookup that raced them does not cache a stale record.
        var generation: UInt64 = 0
        /// Digests whose entry is being looked up again in the background.
        var refreshing: Set<TokenDigest> = []
        /// Digests of tokens known to the store (at most `knownDigestsBound`): those it accepted in this process, those
        /// it listed as active when asked (`learnActiveTokens`, at the gateway's start) and those created here. A caller
        /// that must queue store lookups can put a known client's before those of tokens never seen (`CachedTokenGrant`).
        /// A hint for that order only: what a lookup decides always comes from the store.
        var knownDigests: Set<TokenDigest> = []
        /// The creation time from which the next `learnNewTokens` lists tokens: the time of the last listing that
        /// succeeded (`learnActiveTokens`, `learnNewTokens`) less `newTokenLookback`, or where a full listing stopped;
        /// nil until a listing has succeeded.
        var listNewTokensFrom: Date?

        /// Puts `record`, which the store returned at `fetchedAt`, in place of its token's cached record (revoked, or
        /// with new limits), so the cache answers with it at once, without a store read, for a whole lifetime from
        /// then: an entry that had expired vouches again, so a revocation here is seen at once also by the checks
        /// that ask only the cache (`cachedStanding`, decision 0142).
        mutating func replaceCached(_ record: ClientToken, fetchedAt: Date) {
            for (digest, entry) in cache where entry.stored.token.id == record.id {
                cache[digest]?.stored.token = record
                cache[digest]?.fetchedAt = fetchedAt
            }
        }

        mutating func noteKnown(_ digest: TokenDigest) {
            if knownDigests.count < TokenService.knownDigestsBound { knownDigests.insert(digest) }
        }
    }

    /// The most digests `State.knownDigests` keeps (32 bytes each: ~3 MB at the bound). Past it, tokens first accepted
    /// later are looked up with the unknown ones.
    static let knownDigestsBound = 100_000

    /// The store holding the tokens.
    public let store: any StateStore
    private let cacheLifetime: TimeInterval
    private let lastUsedInterval: TimeInterval
    private let now: @Sendable () -> Date
    private let state = Mutex(State())
    /// Held for a whole flush, so a `flushLastUsed()` call returns only after a background flush that had already
    /// taken the queued times has written them (otherwise it found the queue empty and returned early).
    private let flushing = Mutex(())
    /// Runs the ahead-of-time lookups, one at a time.
    private let refreshQueue = DispatchQueue(label: "skillgate.tokens.refresh")
    /// Where the background last-used writes run.
    private let lastUsedWrites = DispatchQueue(label: "skillgate.tokens.last-used", qos: .background)
    /// Where `currentStanding(of:)` reads the store when the cache cannot tell, one read at a time, off the caller's thread.
    private let recheckReads = BlockingWorkQueue(label: "skillgate.tokens.rechecks")

    /// - Parameters:
    ///   - cacheLifetime: how long a looked-up token is trusted without asking the store again.
    ///   - lastUsedInterval: the least time between two `last_used_at` writes for one token.
    ///   - now: the clock (tests pass their own).
    public init(store: any StateStore, cacheLifetime: Duration = .seconds(30), lastUsedInterval: Duration = .seconds(60),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.cacheLifetime = Self.seconds(cacheLifetime)
        self.lastUsedInterval = Self.seconds(lastUsedInterval)
        self.now = now
    }

    /// Creates a token. Returns its text, to show once, and its record. Throws `TokenError` for an
    /// invalid or taken name or scope. `admin` makes an admin token (admin API and console); `chat` says whether it
    /// may also use the chat and agent surfaces (ordinary tokens always may).
    public func create(name: String, scenarios: [String] = [], models: [String] = [], defaultScenario: String? = nil,
                       limits: TokenLimits = TokenLimits(), admin: Bool = false, chat: Bool = true) throws -> (token: String, record: ClientToken)
    {
        try ClientToken.validateName(name)
        let scenarios = try ClientToken.validateScope(scenarios, kind: "scenario")
        let models = try ClientToken.validateScope(models, kind: "model")
        if let defaultScenario {
            _ = try ClientToken.validateScope([defaultScenario], kind: "default scenario")
            guard scenarios.isEmpty || scenarios.contains(defaultScenario) else {
                throw TokenError.defaultScenarioNotAllowed(defaultScenario)
            }
        }
        let text = try TokenFormat.generate()
        let record = ClientToken(id: try ClientToken.generateId(), name: name, scenarios: scenarios, models: models,
                                 defaultScenario: defaultScenario, createdAt: now().roundedToMilliseconds, limits: limits,
                                 admin: admin, chat: admin ? chat : true)
        let hash = TokenFormat.hash(text)
        try store.insertToken(record, hash: hash)
        if let digest = TokenDigest(hex: hash) { state.withLock { $0.noteKnown(digest) } }
        return (text, record)
    }

    /// How many active tokens `learnActiveTokens` notes, the most recently used first: 10,000 digests take ~1 MB
    /// (choosing them from 100,000 tokens added ~50 ms to the start, decision 0079); the others are learnt as they are
    /// accepted.
    public static let activeTokensLearntAtStart = 10_000

    /// Notes the tokens the store holds as active (the `activeTokensLearntAtStart` most recently used) as known, so
    /// that right after a start their first lookups are not queued behind tokens never seen (a made-up-token flood;
    /// decision 0079). Returns how many it noted. Throws when the store cannot be read; the tokens are then learnt as
    /// they are accepted.
    @discardableResult
    public func learnActiveTokens() throws -> Int {
        let asked = now()
        let digests = try store.activeTokenHashes(limit: Self.activeTokensLearntAtStart).compactMap(TokenDigest.init(hex:))
        state.withLock { state in
            for digest in digests { state.noteKnown(digest) }
            state.listNewTokensFrom = asked.addingTimeInterval(-Self.newTokenLookback)
        }
        return digests.count
    }

    /// How far before the previous listing `learnNewTokens` looks again. A token's creation time is read from its
    /// creator's clock before its row is written, so a row can show up with a time a little before a listing that
    /// missed it (a transaction still open, another instance's clock a little behind). Tokens whose creator's clock is
    /// further behind are learnt when first accepted, as before decision 0088.
    public static let newTokenLookback: TimeInterval = 60

    /// The most tokens one `learnNewTokens` lists by default; a full list is followed by another from its last token's
    /// time at the next call.
    public static let newTokensPerListing = 10_000

    /// Notes the active tokens created since the last listing (with `newTokenLookback` of overlap) as known, so that
    /// a token created elsewhere while this gateway runs (`skillgate tokens create` beside it, another instance on
    /// PostgreSQL) is not queued with made-up tokens on its first request (decision 0088). Before any listing has
    /// succeeded (the store could not be read at the start) it does `learnActiveTokens` instead. Returns how many
    /// tokens the store listed (at most `limit`); throws when it cannot be read (the next call looks back to the last
    /// listing that worked). The gateway calls it every two seconds, off the event loops.
    @discardableResult
    public func learnNewTokens(listingAtMost limit: Int = TokenService.newTokensPerListing) throws -> Int {
        guard let from = state.withLock({ $0.listNewTokensFrom }) else { return try learnActiveTokens() }
        let limit = max(limit, 1)
        let asked = now()
        let listed = try store.activeTokenHashes(createdSince: from, limit: limit)
        let digests = listed.compactMap { TokenDigest(hex: $0.hash) }
        // Not the later of the two: after the wall clock was set back, the next listing must look back from now.
        var nextFrom = asked.addingTimeInterval(-Self.newTokenLookback)
        if listed.count == limit, let first = listed.first, let last = listed.last {
            // A full list may have left some out: the next listing starts at its last token; past it when the whole
            // list has one creation time (a bulk insert), or the listing would never get beyond that millisecond.
            nextFrom = first.createdAt == last.createdAt ? last.createdAt.addingTimeInterval(0.001) : last.createdAt
        }
        state.withLock { state in
            for digest in digests { state.noteKnown(digest) }
            state.listNewTokensFrom = nextFrom
        }
        return listed.count
    }

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
            return .notCached(known: state.withLock { $0.knownDigests.contains(digest) })
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

    /// Whether the token of `grant` is still accepted — for requests that run long (streams, agent
    /// runs) and must stop when their token is revoked. The same cached lookup as `authenticate`:
    /// a revocation through this service is seen at once, one by another process within
    /// `cacheLifetime`. False when the store cannot be read (failing closed; a request under way asks `standing(of:)`,
    /// which tells that case apart). No last-used write.
    public func isStillValid(_ grant: TokenGrant) -> Bool {
        standing(of: grant) == .valid
    }

    /// What the cache, or else the store, says now about the token of `grant`: `.unknown` when only the store could
    /// tell and it cannot be read. The same cached lookup as `isStillValid`; may read the store, so call it off the
    /// event loops.
    public func standing(of grant: TokenGrant) -> TokenStanding {
        do {
            return try checkedRegrant(grant) == nil ? .revoked : .valid
        } catch {
            return .unknown
        }
    }

    /// `standing(of:)` for callers on an event loop (decision 0086): the cache answers where the caller runs; when
    /// only the store can tell (the entry expired, say while the store was held past the cache's lifetime), the store
    /// is read on a queue of its own and the caller awaits it, so its loop goes on serving other connections.
    public func currentStanding(of grant: TokenGrant) async -> TokenStanding {
        if let cached = cachedStanding(of: grant) { return cached }
        return await recheckReads.run { [self] in standing(of: grant) }
    }

    /// What the cache alone says about the token of `grant` (`.valid` or `.revoked`), or nil when only the store could
    /// tell: never reads the store, so an event loop may ask it for every event it relays.
    public func cachedStanding(of grant: TokenGrant) -> TokenStanding? {
        cachedLookup(grant.digest, noteUse: false).map { $0 == nil ? .revoked : .valid }
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
        let generation = state.withLock { $0.generation }
        let found: StoredClientToken?
        do { found = try store.token(hash: digest.hex) } catch { throw TokenStoreUnavailable(reason: "\(error)") }
        guard let stored = found else { return nil }
        let (token, flush) = state.withLock { state in
            cacheFetched(stored, for: digest, at: time, generation: generation, noteUse: noteUse, in: &state)
        }
        if flush { scheduleFlush() }
        return token
    }

    /// Caches the record the store returned for `digest` at `time` (unless a revoke or an invalidation came since
    /// `generation`: then the answer stands for this caller only), noting its use when asked. Returns the token when the
    /// record is accepted (nil: refused), and whether a background last-used flush must start.
    private func cacheFetched(_ stored: StoredClientToken, for digest: TokenDigest, at time: Date, generation: UInt64, noteUse: Bool,
                              in state: inout State) -> (token: ClientToken?, scheduleFlush: Bool) {
        var entry = CacheEntry(stored: stored, storedDigest: TokenDigest(hex: stored.hash), fetchedAt: time, lastUsedQueuedAt: state.cache[digest]?.lastUsedQueuedAt)
        let accepted = Self.accepts(entry, digest)
        let flush = accepted && noteUse ? self.noteUse(of: &entry, in: &state, at: time) : (queued: false, schedule: false)
        if accepted { state.noteKnown(digest) }
        if state.generation == generation { state.cache[digest] = entry }
        return (accepted ? entry.stored.token : nil, flush.schedule)
    }

    /// `standing(of:)` for many grants at once, for the revocation sweep (decision 0142): the cache answers for the
    /// grants whose entries are in the first half of their lifetime (or hold a revocation, which is final), and one store
    /// read (`StateStore.tokens(hashes:)`, one query on PostgreSQL) for the rest, each answer cached as a lookup's is. So
    /// the sweep renews its tokens' entries in one read, rather than each older entry starting a refresh of its own.
    /// When that read fails, a grant keeps what its entry says while the entry still vouches, else `.unknown`. One
    /// standing per grant, in order; may read the store, so call it off the event loops.
    public func standings(of grants: [TokenGrant]) -> [TokenStanding] {
        var standings = [TokenStanding?](repeating: nil, count: grants.count)
        var toRead: [TokenDigest: [Int]] = [:]
        for (index, grant) in grants.enumerated() {
            let cached = peek(grant.digest)
            standings[index] = cached?.standing  // the cache's word while it vouches, if the store cannot be read
            if let cached, cached.young || cached.standing == .revoked { continue }
            toRead[grant.digest, default: []].append(index)
        }
        guard !toRead.isEmpty else { return standings.map { $0 ?? .unknown } }
        let time = now()
        let generation = state.withLock { $0.generation }
        guard let found = try? store.tokens(hashes: toRead.keys.map(\.hex)) else { return standings.map { $0 ?? .unknown } }
        var byDigest: [TokenDigest: StoredClientToken] = [:]
        for stored in found { if let digest = TokenDigest(hex: stored.hash) { byDigest[digest] = stored } }
        state.withLock { state in
            for (digest, indices) in toRead {
                // A hash the store no longer has is a deleted token: as revoked as one marked so.
                let accepted = byDigest[digest].map {
                    cacheFetched($0, for: digest, at: time, generation: generation, noteUse: false, in: &state).token != nil
                } ?? false
                for index in indices { standings[index] = accepted ? .valid : .revoked }
            }
        }
        return standings.map { $0 ?? .unknown }
    }

    /// What the cache holds for `digest`, with no side effect (no use noted, no refresh started): the standing, and
    /// whether the entry is in the first half of its lifetime; nil when no entry vouches.
    private func peek(_ digest: TokenDigest) -> (standing: TokenStanding, young: Bool)? {
        let time = now()
        return state.withLock { state in
            guard let entry = state.cache[digest], let age = vouchingAge(of: entry, at: time) else { return nil }
            return (Self.accepts(entry, digest) ? .valid : .revoked, age < cacheLifetime / 2)
        }
    }

    /// The age of `entry` at `time` while the cache vouches for it: younger than `cacheLifetime`, and not fetched "in
    /// the future" (which means the wall clock was set back: a revocation elsewhere would go unseen for as long as the
    /// clock went back). Nil otherwise. A revoked entry vouches for good, as if just fetched: a revocation is final (no
    /// command takes one back; a token made again under the name has a new text), so a revoked token that keeps being
    /// presented, or an answer of one still under way, costs no store read (decision 0144).
    private func vouchingAge(of entry: CacheEntry, at time: Date) -> TimeInterval? {
        if entry.stored.token.isRevoked { return 0 }
        let age = time.timeIntervalSince(entry.fetchedAt)
        return age >= 0 && age < cacheLifetime ? age : nil
    }

    /// The cache's answer for `digest`: nil when it holds no fresh entry, `.some(nil)` when it holds one it refuses
    /// (revoked, or a stored digest that does not match), else the token. One lock, one dictionary lookup; starts a
    /// background lookup when the entry is past half its lifetime, and notes the use when asked.
    private func cachedLookup(_ digest: TokenDigest, noteUse: Bool) -> ClientToken?? {
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
        let (hit, generation, flushFromHit, refresh) = state.withLock { state -> (CachedAnswer?, UInt64, Bool, Bool) in
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
            state.withLock { state in
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

    /// Waits for the background lookups started so far (tests).
    func waitForRefreshes() {
        refreshQueue.sync {}
    }

    /// Whether the entry's stored digest is `digest` (compared in constant time) and its token is not revoked.
    private static func accepts(_ entry: CacheEntry, _ digest: TokenDigest) -> Bool {
        entry.storedDigest?.matches(digest) == true && !entry.stored.token.isRevoked
    }

    /// Queues a last-used write for the entry's token unless one was queued within
    /// `lastUsedInterval`. Returns whether it queued, and whether a background flush must start.
    private func noteUse(of entry: inout CacheEntry, in state: inout State, at time: Date) -> (queued: Bool, schedule: Bool) {
        if let last = entry.lastUsedQueuedAt, case let since = time.timeIntervalSince(last), since >= 0, since < lastUsedInterval {
            return (false, false)
        }
        entry.lastUsedQueuedAt = time
        entry.stored.token.lastUsedAt = time.roundedToMilliseconds
        state.pendingLastUsed[entry.stored.token.id] = time
        if state.flushScheduled { return (true, false) }
        state.flushScheduled = true
        return (true, true)
    }

    /// Writes the queued last-used times on `lastUsedWrites`: a thread that may wait for the database's write lock (up
    /// to the store's busy timeout while another process holds it), which a cooperative-pool thread must never do.
    private func scheduleFlush() {
        lastUsedWrites.async { [self] in try? flushLastUsed() }
    }

    /// All tokens, revoked ones included, oldest first.
    public func list() throws -> [ClientToken] {
        try store.tokens()
    }

    /// Revokes the active token named `name`; the cache holds the revoked record from now on, so every lookup in this
    /// process refuses it at once. Returns the revoked record.
    @discardableResult
    public func revoke(name: String) throws -> ClientToken {
        let asked = now()
        guard let revoked = try store.revokeToken(named: name, at: asked.roundedToMilliseconds) else {
            if try store.tokens().contains(where: { $0.name == name }) { throw TokenError.alreadyRevoked(name) }
            throw TokenError.unknownToken(name)
        }
        state.withLock { state in
            state.replaceCached(revoked, fetchedAt: asked)
            state.generation &+= 1
        }
        return revoked
    }

    /// Replaces the limits of the active token named `name` (`skillgate tokens update`) and puts the new record in the
    /// cache, so this process applies them at once (another process within the cache lifetime). Returns the updated record.
    @discardableResult
    public func updateLimits(name: String, _ limits: TokenLimits) throws -> ClientToken {
        let asked = now()
        guard let updated = try store.updateTokenLimits(named: name, limits) else {
            if try store.tokens().contains(where: { $0.name == name }) { throw TokenError.revokedLimits(name) }
            throw TokenError.unknownToken(name)
        }
        state.withLock { state in
            state.replaceCached(updated, fetchedAt: asked)
            state.generation &+= 1
        }
        return updated
    }

    /// Forgets all cached lookups; the next `authenticate` of each token asks the store.
    public func invalidateCache() {
        state.withLock { state in
            state.cache.removeAll()
            state.generation &+= 1
        }
    }

    /// Writes the queued last-used times now (also done in the background after `authenticate`;
    /// call it at shutdown), and returns only once a background flush already writing has finished.
    /// On failure the times stay queued for the next flush.
    public func flushLastUsed() throws {
        try flushing.withLock { _ throws(any Error) in
            let pending = state.withLock { state -> [String: Date] in
                defer { state.pendingLastUsed.removeAll(); state.flushScheduled = false }
                return state.pendingLastUsed
            }
            guard !pending.isEmpty else { return }
            do {
                try store.markTokensUsed(pending)
            } catch {
                state.withLock { state in state.pendingLastUsed.merge(pending) { newer, _ in newer } }
                throw error
            }
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
