import Foundation
import Synchronization

/// Issues, checks and revokes SkillGate client tokens over a `StateStore`.
///
/// Token text is shown once (returned by `create`) and stored only as its SHA-256 hash.
/// `authenticate` hashes the presented text, finds the record by hash (in memory when cached, else
/// in the store) and confirms it with a constant-time comparison of the hashes.
///
/// The cache holds found tokens for `cacheLifetime`, so revocations made by another process (the
/// CLI next to a running server) take effect within that time; revocations through this service
/// take effect at once. `invalidateCache()` (on SIGHUP, say) drops it.
public final class TokenService: Sendable {
    private struct CacheEntry {
        var stored: StoredClientToken
        var fetchedAt: Date
        /// When a last-used time was last queued for this token.
        var lastUsedQueuedAt: Date?
    }

    private struct State {
        var cache: [String: CacheEntry] = [:]
        var pendingLastUsed: [String: Date] = [:]
        var flushScheduled = false
        /// Bumped by revoke and invalidate, so a lookup that raced them does not cache a stale record.
        var generation: UInt64 = 0
    }

    /// The store holding the tokens.
    public let store: any StateStore
    private let cacheLifetime: TimeInterval
    private let lastUsedInterval: TimeInterval
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

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
    /// invalid or taken name or scope.
    public func create(name: String, scenarios: [String] = [], models: [String] = [], defaultScenario: String? = nil)
        throws -> (token: String, record: ClientToken)
    {
        try TokenFormat.validateName(name)
        let scenarios = try TokenFormat.validateScope(scenarios, kind: "scenario")
        let models = try TokenFormat.validateScope(models, kind: "model")
        if let defaultScenario {
            _ = try TokenFormat.validateScope([defaultScenario], kind: "default scenario")
            guard scenarios.isEmpty || scenarios.contains(defaultScenario) else {
                throw TokenError.defaultScenarioNotAllowed(defaultScenario)
            }
        }
        let text = try TokenFormat.generate()
        let record = ClientToken(id: try TokenFormat.generateID(), name: name, scenarios: scenarios, models: models,
                                 defaultScenario: defaultScenario, createdAt: now().roundedToMilliseconds)
        try store.insertToken(record, hash: TokenFormat.hash(text))
        return (text, record)
    }

    /// The token record for `presented` token text, or nil when it is unknown, revoked, malformed,
    /// or the store cannot be read (failing closed).
    public func authenticate(_ presented: String) -> ClientToken? {
        guard TokenFormat.looksLikeToken(presented) else { return nil }
        let hash = TokenFormat.hash(presented)
        let time = now()
        let (cached, generation) = state.withLock { state -> (CacheEntry?, UInt64) in
            guard let entry = state.cache[hash], time.timeIntervalSince(entry.fetchedAt) < cacheLifetime else {
                return (nil, state.generation)
            }
            return (entry, state.generation)
        }
        let stored: StoredClientToken
        if let cached {
            stored = cached.stored
        } else {
            // Off the lock: other requests keep authenticating while this one asks the store.
            guard let found = try? store.token(hash: hash) else { return nil }
            stored = found
        }
        guard ConstantTime.equals(Array(stored.hash.utf8), Array(hash.utf8)), !stored.token.isRevoked else { return nil }

        let (token, scheduleFlush) = state.withLock { state -> (ClientToken, Bool) in
            var entry = state.cache[hash] ?? CacheEntry(stored: stored, fetchedAt: time)
            if cached == nil {
                entry.stored = stored
                entry.fetchedAt = time
            }
            let queue = entry.lastUsedQueuedAt.map { time.timeIntervalSince($0) >= lastUsedInterval } ?? true
            if queue {
                entry.lastUsedQueuedAt = time
                entry.stored.token.lastUsedAt = time.roundedToMilliseconds
                state.pendingLastUsed[entry.stored.token.id] = time
            }
            // A revoke or invalidation since the lookup began: answer this request, cache nothing.
            if state.generation == generation { state.cache[hash] = entry }
            let schedule = queue && !state.flushScheduled
            if schedule { state.flushScheduled = true }
            return (entry.stored.token, schedule)
        }
        if scheduleFlush {
            Task.detached(priority: .background) { [self] in try? flushLastUsed() }
        }
        return token
    }

    /// All tokens, revoked ones included, oldest first.
    public func list() throws -> [ClientToken] {
        try store.tokens()
    }

    /// Revokes the active token named `name` and drops it from the cache. Returns the revoked record.
    @discardableResult
    public func revoke(name: String) throws -> ClientToken {
        guard let revoked = try store.revokeToken(named: name, at: now().roundedToMilliseconds) else {
            if try store.tokens().contains(where: { $0.name == name }) { throw TokenError.alreadyRevoked(name) }
            throw TokenError.unknownToken(name)
        }
        state.withLock { state in
            state.cache = state.cache.filter { $0.value.stored.token.id != revoked.id }
            state.generation &+= 1
        }
        return revoked
    }

    /// Forgets all cached lookups; the next `authenticate` of each token asks the store.
    public func invalidateCache() {
        state.withLock { state in
            state.cache.removeAll()
            state.generation &+= 1
        }
    }

    /// Writes the queued last-used times now (also done in the background after `authenticate`;
    /// call it at shutdown). On failure the times stay queued for the next flush.
    public func flushLastUsed() throws {
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

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
