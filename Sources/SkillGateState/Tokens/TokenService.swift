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
    struct CacheEntry {
        var stored: StoredClientToken
        /// `stored.hash` read back into a digest (nil when the store's text is not 64 hex digits: never accepted).
        let storedDigest: TokenDigest?
        var fetchedAt: Date
        /// When a last-used time was last queued for this token.
        var lastUsedQueuedAt: Date?
    }

    struct State {
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
    let cacheLifetime: TimeInterval
    let lastUsedInterval: TimeInterval
    let now: @Sendable () -> Date
    let state = Mutex(State())
    /// Held for a whole flush, so a `flushLastUsed()` call returns only after a background flush that had already
    /// taken the queued times has written them (otherwise it found the queue empty and returned early). It counts the
    /// flushes that wrote: a Mutex of `()` has a value of no size, at the address of the property after it, which
    /// ThreadSanitizer then reported as a race with that property's readers (decision 0165).
    let flushing = Mutex(0)
    /// How many last-used flushes have written so far (waits for a flush under way).
    var lastUsedFlushesWritten: Int { flushing.locked { $0 } }
    /// Runs the ahead-of-time lookups, one at a time.
    let refreshQueue = DispatchQueue(label: "skillgate.tokens.refresh")
    /// Where the background last-used writes run.
    let lastUsedWrites = DispatchQueue(label: "skillgate.tokens.last-used", qos: .background)
    /// Where `currentStanding(of:)` reads the store when the cache cannot tell, one read at a time, off the caller's thread.
    let recheckReads = BlockingWorkQueue(label: "skillgate.tokens.rechecks")

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
        if let digest = TokenDigest(hex: hash) { state.locked { $0.noteKnown(digest) } }
        return (text, record)
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
        state.locked { state in
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
        state.locked { state in
            state.replaceCached(updated, fetchedAt: asked)
            state.generation &+= 1
        }
        return updated
    }

    /// Forgets all cached lookups; the next `authenticate` of each token asks the store.
    public func invalidateCache() {
        state.locked { state in
            state.cache.removeAll()
            state.generation &+= 1
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
