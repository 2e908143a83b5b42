import Synchronization

/// The keys of one provider spread over its calls: each call takes the key with the fewest calls in
/// flight (ties rotate, so sequential traffic is spread evenly over per-key rate limits), and a key
/// the provider refused (401) or rate-limited (429) is skipped for a cooldown of its own while the
/// pool's other keys carry on.
///
/// The pool knows key *names* only (`OPENAI_API_KEY`, `OPENAI_API_KEY_2`, ...); secrets stay in the
/// key store. A caller may give each name a `version` of its secret (`Member`, a fingerprint that changes
/// when the operator sets a new secret under the name): a cooldown belongs to the secret that was refused,
/// so a new secret is used at once (decision 0110). One instance serves the whole gateway.
public final class KeyPool: Sendable {
    /// A key of a pool: its name and, optionally, a version of its secret.
    public struct Member: Sendable, Hashable {
        public var name: String
        /// Changes when the secret does (nil: not told; a cooldown then holds whatever the secret).
        public var version: Int?

        public init(name: String, version: Int? = nil) {
            self.name = name
            self.version = version
        }
    }

    private struct Entry {
        var inFlight = 0
        var cooledUntil: ContinuousClock.Instant?
        /// The version of the secret that cooled down (nil: any).
        var cooledVersion: Int?

        /// Whether `member`'s secret is cooling down at `now`.
        func cooling(_ member: Member, at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            guard let until = cooledUntil, now < until else { return nil }
            if let cooledVersion, let version = member.version, cooledVersion != version { return nil }
            return until
        }
    }

    private struct State {
        var keys: [String: Entry] = [:]
        var rotation = 0
    }

    private let state = Mutex(State())
    private let cooldown: Duration
    /// The clock cooldowns are measured with.
    public let clock: any ResilienceClock

    /// - Parameter cooldown: how long a refused or rate-limited key is skipped when the provider
    ///   gave no `Retry-After`.
    public init(cooldown: Duration, clock: any ResilienceClock = SystemResilienceClock()) {
        self.cooldown = cooldown
        self.clock = clock
    }

    /// Takes a key among `members` (the pool's key names, in a stable order) for one call: the ready
    /// key with the fewest calls in flight; when every key is cooling down, the one that recovers first
    /// (so the caller gets the provider's own answer rather than none). Release the lease when the
    /// call ends.
    public func acquire(_ members: [String]) -> KeyLease {
        acquire(members.map { Member(name: $0) })
    }

    /// `acquire` for keys whose secrets' versions are known: a key cooled down under another secret is ready.
    public func acquire(_ members: [Member]) -> KeyLease {
        precondition(!members.isEmpty, "a key pool has at least one key")
        let now = clock.now
        let chosen = state.locked { s -> Member in
            var best: [Int] = []
            var fewest = Int.max
            var soonest: (index: Int, until: ContinuousClock.Instant)?
            for (i, member) in members.enumerated() {
                let e = s.keys[member.name] ?? Entry()
                if let until = e.cooling(member, at: now) {
                    if soonest == nil || until < soonest!.until { soonest = (i, until) }
                    continue
                }
                if e.inFlight < fewest { fewest = e.inFlight; best = [i] } else if e.inFlight == fewest { best.append(i) }
            }
            let index: Int
            if best.isEmpty {
                index = soonest!.index
            } else {
                index = best[s.rotation % best.count]
                s.rotation &+= 1
            }
            let member = members[index]
            s.keys[member.name, default: Entry()].inFlight += 1
            return member
        }
        return KeyLease(taken: chosen, members: members, pool: self)
    }

    /// How many of `members` are not cooling down now.
    public func readyCount(_ members: [String]) -> Int {
        readyCount(members.map { Member(name: $0) })
    }

    /// How many of `members` (with their secrets' versions) are not cooling down now.
    public func readyCount(_ members: [Member]) -> Int {
        let now = clock.now
        return state.locked { s in
            members.reduce(0) { n, member in (s.keys[member.name] ?? Entry()).cooling(member, at: now) == nil ? n + 1 : n }
        }
    }

    /// How long `name` will still be skipped, or nil when it is ready.
    public func remainingCooldown(_ name: String) -> Duration? {
        let now = clock.now
        return state.locked { s in
            guard let until = s.keys[name]?.cooledUntil, now < until else { return nil }
            return until - now
        }
    }

    /// Calls in flight on `name`.
    public func inFlight(_ name: String) -> Int {
        state.locked { $0.keys[name]?.inFlight ?? 0 }
    }

    fileprivate func end(_ name: String) {
        state.locked { s in
            guard var e = s.keys[name] else { return }
            e.inFlight = max(0, e.inFlight - 1)
            s.keys[name] = e
        }
    }

    fileprivate func coolDown(_ member: Member, for duration: Duration?) {
        let now = clock.now
        let until = now + (duration ?? cooldown)
        state.locked { s in
            var e = s.keys[member.name] ?? Entry()
            // A later answer with a shorter Retry-After does not shorten a cooldown of the same secret already running.
            if let current = e.cooling(member, at: now), current > until { return }
            e.cooledUntil = until
            e.cooledVersion = member.version
            s.keys[member.name] = e
        }
    }
}

/// One call's hold on a key of a `KeyPool`: counts as in flight until released.
public final class KeyLease: Sendable {
    /// The key's name in the key store (never its secret).
    public var name: String { taken.name }
    /// The names of the pool the key was taken from.
    public var members: [String] { pooled.map(\.name) }
    private let taken: KeyPool.Member
    private let pooled: [KeyPool.Member]
    private let pool: KeyPool
    private let released = Atomic<Bool>(false)

    fileprivate init(taken: KeyPool.Member, members: [KeyPool.Member], pool: KeyPool) {
        self.taken = taken
        pooled = members
        self.pool = pool
    }

    /// Ends the call; later calls do nothing.
    public func release() {
        if !released.exchange(true, ordering: .acquiringAndReleasing) { pool.end(taken.name) }
    }

    /// Whether an upstream answer with `status` refuses this key rather than the request: 401 (the
    /// key is revoked or wrong) or 429 (this key's rate limit).
    public static func refusesKey(status: Int?) -> Bool {
        status == 401 || status == 429
    }

    /// Reports the call's failure. When the provider refused the key (`refusesKey`), the key cools
    /// down for `retryAfter` seconds (or the pool's cooldown). Returns whether another key of the pool
    /// is ready now, so the caller may try the same deployment again at once with that key.
    @discardableResult
    public func reportFailure(status: Int?, retryAfter: Double?) -> Bool {
        reportFailure(refusesKey: Self.refusesKey(status: status), retryAfter: retryAfter)
    }

    /// Reports the call's failure, which refused this key when `refusesKey` (a 401 or 429, or any answer the
    /// provider's error mapping marks as a refusal of the key or its account: a 402 or 403, Gemini's
    /// `API_KEY_INVALID`): the key then cools down as `reportFailure(status:retryAfter:)` says. Returns whether
    /// another key of the pool is ready now.
    @discardableResult
    public func reportFailure(refusesKey: Bool, retryAfter: Double?) -> Bool {
        guard refusesKey else { return false }
        // An upstream's Retry-After is clamped to an hour (and NaN or negative to nothing), so no
        // header can overflow the arithmetic or park a key for good.
        let seconds = retryAfter.flatMap { $0.isFinite && $0 > 0 ? min($0, 3600) : nil }
        pool.coolDown(taken, for: seconds.map { .milliseconds(Int64(($0 * 1000).rounded())) })
        return pooled.count > 1 && pool.readyCount(pooled) > 0
    }

    deinit { release() }
}
