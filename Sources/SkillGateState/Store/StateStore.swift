import FoundationEssentials
import Glibc
import Dispatch

/// The gateway's persistent state: client tokens (with their limits) and the usage ledger. Small and storage-neutral on purpose:
/// `SQLiteStateStore` is the embedded default; a PostgreSQL store for many gateway instances
/// implements the same calls over the same tables.
///
/// Implementations are thread-safe. Calls are synchronous and short (single-row reads and
/// writes); callers keep them off latency-critical paths (see `TokenService`'s cache).
public protocol StateStore: Sendable {
    // MARK: Client tokens

    /// Adds a token with the SHA-256 hex `hash` of its text. Throws `TokenError.duplicateName`
    /// when an active (not revoked) token has the same name.
    func insertToken(_ token: ClientToken, hash: String) throws

    /// The token whose hash is `hash` (revoked tokens included), or nil.
    func token(hash: String) throws -> StoredClientToken?

    /// The tokens whose hashes are among `hashes` (revoked tokens included; unknown hashes are left out), in no
    /// particular order: many lookups in one read, for the revocation sweep (decision 0142). The default asks
    /// `token(hash:)` for each; a store with a round trip per query answers in one (PostgreSQL).
    func tokens(hashes: [String]) throws -> [StoredClientToken]

    /// All tokens, revoked ones included, oldest first.
    func tokens() throws -> [ClientToken]

    /// The SHA-256 hex hashes of at most `limit` tokens that are not revoked, the most recently used first (tokens never
    /// used last).
    func activeTokenHashes(limit: Int) throws -> [String]

    /// The hashes and creation times of at most `limit` tokens that are not revoked and were created at or after
    /// `since`, the oldest first: how a running gateway learns of tokens created elsewhere (another instance, the CLI).
    func activeTokenHashes(createdSince since: Date, limit: Int) throws -> [CreatedTokenHash]

    /// Marks the active token named `name` revoked at `date` and returns it; nil when no active
    /// token has that name.
    func revokeToken(named name: String, at date: Date) throws -> ClientToken?

    /// Replaces the limits of the active token named `name` and returns it; nil when no active token has that name.
    func updateTokenLimits(named name: String, _ limits: TokenLimits) throws -> ClientToken?

    /// Records when tokens were last used (`id` → date). A date older than the stored one is ignored.
    func markTokensUsed(_ uses: [String: Date]) throws

    // MARK: Usage

    /// Appends one usage record.
    func recordUsage(_ record: UsageRecord) throws

    /// Appends usage records in one transaction (the usage ledger's batches).
    func recordUsage(_ records: [UsageRecord]) throws

    /// Sums of the request records since `since`, for one token (or all when `tokenId` is nil); `requests` leaves out
    /// requests refused with 429.
    func usageSummary(tokenId: String?, since: Date) throws -> UsageSummary

    /// Sums of the request records since `since` in one scenario (scenario budgets).
    func usageSummary(scenario: String, since: Date) throws -> UsageSummary

    /// The usage since `since` grouped by token, model, scenario or day, largest cost first (by day: in order).
    func usageReport(since: Date, by grouping: UsageGrouping) throws -> [UsageReportRow]

    /// The same report split by UTC day: day by day, within a day largest cost first.
    func usageReportPerDay(since: Date, by grouping: UsageGrouping) throws -> [UsageDayRow]

    /// A ledger batch whose commit lost its connection unheard and that the server has not been asked about yet
    /// (PostgreSQL, decision 0139); nil when there is none. The ledger keeps it across a stop (decision 0149).
    func unsettledUsage() -> UnsettledUsageBatch?

    /// Takes up a batch `unsettledUsage` gave before a stop: the next `recordUsage` asks the server about it first and
    /// skips the records it committed.
    func resumeUnsettledUsage(_ batch: UnsettledUsageBatch)
}

extension StateStore {
    /// No commit is ever unheard on a store without a server (SQLite).
    public func unsettledUsage() -> UnsettledUsageBatch? { nil }

    public func resumeUnsettledUsage(_ batch: UnsettledUsageBatch) {}

    /// One `token(hash:)` per hash: a store whose lookups are local (SQLite, ~25 µs each) needs nothing better.
    public func tokens(hashes: [String]) throws -> [StoredClientToken] {
        try hashes.compactMap { try token(hash: $0) }
    }
}
