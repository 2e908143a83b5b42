import FoundationEssentials
import SkillGateKeys
import Synchronization

/// Learning which tokens the store holds, so a known client's first lookup is not queued behind made-up tokens
/// (decisions 0079, 0088).
extension TokenService {
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
        state.locked { state in
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
        guard let from = state.locked({ $0.listNewTokensFrom }) else { return try learnActiveTokens() }
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
        state.locked { state in
            for digest in digests { state.noteKnown(digest) }
            state.listNewTokensFrom = nextFrom
        }
        return listed.count
    }
}
