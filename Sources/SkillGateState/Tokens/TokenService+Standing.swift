import FoundationEssentials
import SkillGateCore
import SkillGateKeys
import Synchronization

/// Whether the token of a request under way still stands (decisions 0141, 0142, 0144): asked per event from the cache
/// alone, between agent steps, and by the once-a-second sweep for many tokens at once.
extension TokenService {
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

    /// The limits of the token of `grant` as the cache holds its record now (an update through another process is seen
    /// within `cacheLifetime`); nil when the cache holds no answer for it, or holds a revocation. Never reads the store.
    public func cachedLimits(of grant: TokenGrant) -> TokenLimits? {
        cachedLookup(grant.digest, noteUse: false).flatMap { $0?.limits }
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
        let generation = state.locked { $0.generation }
        guard let found = try? store.tokens(hashes: toRead.keys.map(\.hex)) else { return standings.map { $0 ?? .unknown } }
        var byDigest: [TokenDigest: StoredClientToken] = [:]
        for stored in found { if let digest = TokenDigest(hex: stored.hash) { byDigest[digest] = stored } }
        state.locked { state in
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
        return state.locked { state in
            guard let entry = state.cache[digest], let age = vouchingAge(of: entry, at: time) else { return nil }
            return (Self.accepts(entry, digest) ? .valid : .revoked, age < cacheLifetime / 2)
        }
    }
}
