import FoundationEssentials
import Glibc
import Dispatch
import SkillGateKeys
import Synchronization

/// The `StateStore` on PostgreSQL (`state.postgres_url`), for several gateway instances sharing one database: client
/// tokens (a token created or revoked through one instance holds on all, within the token cache's 2 s) and the usage
/// ledger (one report over all instances; budgets start from the shared spend), stored responses and the notes skills'
/// notes (decision 0122). The embedding cache and the skill examples stay in each instance's SQLite file.
///
/// One connection behind a `Mutex`, like `SQLiteStateStore`: token lookups are cached by `TokenService` and usage is
/// written in batches, so the store sees a few queries per second per instance. The usage reports and sums over the
/// ledger's rows, which take long on a large ledger, run on a second connection made at the first of them, so they
/// never hold up a token lookup or a ledger batch (decision 0089); the notes skills' reads and writes on a third, made
/// at the first of them, for the same reason (decision 0122). The schema is migrated on open, under
/// an advisory lock so two instances starting together do not both migrate.
public final class PostgresStateStore: StateStore {
    private let connection: Mutex<PostgresConnection>
    /// The connection of the long reads, made at the first.
    private let reportConnection: PostgresSideConnection
    /// The connection of the notes skills and `skillgate notes`, made at their first call.
    private let notesConnection: PostgresSideConnection
    /// A ledger batch whose commit lost the connection before the server's answer, until the server says whether it
    /// was committed (used only under the main connection's lock).
    let unsettledUsageBatch = Mutex<UnsettledUsageBatch?>(nil)
    /// When the ledger writer last dropped expired minute totals.
    private let rollupPrune = UsageRollup.PruneSchedule()
    /// `host:port/database`, for messages.
    public let target: String

    /// Connects and migrates. Throws `PostgresError` naming the server and what to check when it cannot. `notices`
    /// receives the server's warnings (a gateway logs them; the CLI leaves them on standard error).
    ///
    /// `answerTimeout` bounds each statement's wait for the server on the main and the notes' connections; the usage
    /// reports' long reads may take `reportTimeoutFactor` times as long (decision 0163).
    public init(url: String, answerTimeout: Duration = PostgresStateStore.defaultAnswerTimeout,
                notices: (@Sendable (String) -> Void)? = nil) throws {
        let db = try PostgresConnection(url: url, answerTimeout: answerTimeout, notices: notices)
        reportConnection = PostgresSideConnection(url: url, answerTimeout: answerTimeout * Self.reportTimeoutFactor, notices: notices)
        notesConnection = PostgresSideConnection(url: url, answerTimeout: answerTimeout, notices: notices)
        target = db.target
        // A migration's statements (an index built over a large ledger, say) may take far longer than a lookup.
        db.answerTimeout = Self.migrationTimeout
        try db.transaction {
            try db.execute("SELECT pg_advisory_xact_lock(727100)")
            try db.execute("CREATE TABLE IF NOT EXISTS skillgate_schema (version INTEGER NOT NULL)")
            let rows = try db.query("SELECT version FROM skillgate_schema")
            let current = rows.count == 0 ? 0 : Int(rows.int64(0, 0))
            guard current <= PostgresSchema.steps.count else {
                throw PostgresError(message: "schema version \(current) is newer than version \(PostgresSchema.steps.count) known to this SkillGate; upgrade SkillGate",
                                    context: "migrating \(db.target)")
            }
            for step in PostgresSchema.steps[current...] { try db.execute(step) }
            if rows.count == 0 { try db.query("INSERT INTO skillgate_schema (version) VALUES ($1)", [String(PostgresSchema.steps.count)]) }
            else { try db.query("UPDATE skillgate_schema SET version = $1", [String(PostgresSchema.steps.count)]) }
        }
        try Self.foldUnfoldedNotes(db)
        db.answerTimeout = answerTimeout
        connection = Mutex(db)
    }

    /// How long a statement waits for the server by default (`state.query_timeout_seconds`).
    public static let defaultAnswerTimeout: Duration = .seconds(10)
    /// How many times `answerTimeout` a usage report's read may take.
    public static let reportTimeoutFactor = 12
    /// How long the schema's migration at start may wait for each of its statements.
    static let migrationTimeout: Duration = .seconds(30 * 60)

    /// Runs `body` with exclusive use of the connection.
    public func withConnection<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try connection.locked { db throws -> T in try body(db) }
    }

    /// Runs `body` with exclusive use of the connection of long reads (made at the first call), which never waits for
    /// `withConnection`'s users, nor they for it. When that connection cannot be made (the server at its
    /// `max_connections`, say), `body` runs on the main connection, as every read did before decision 0089, and the next
    /// call tries again.
    public func withReportConnection<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
        if let answered = try reportConnection.run(body) { return answered }
        return try withConnection(body)
    }

    /// Runs `body` with exclusive use of the notes' connection (made at the first call), so a notes skill's search or
    /// save never waits for, nor holds up, a token lookup or a ledger batch. When that connection cannot be made, this
    /// throws why — unlike `withReportConnection`, it never falls back on the main connection: a notes call waiting out
    /// a connection timeout there would hold up every token lookup behind it.
    public func withNotesConnection<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try notesConnection.runConnected(body)
    }

    // MARK: Tokens

    private static let tokenColumns = "id, name, scenarios, models, default_scenario, created_at, last_used_at, revoked_at, token_hash, limits, admin, chat"

    private static func token(_ r: PostgresRows, _ i: Int) -> ClientToken {
        ClientToken(id: r.text(i, 0) ?? "", name: r.text(i, 1) ?? "", scenarios: SQLiteStateStore.decodeList(r.text(i, 2) ?? "[]"),
                    models: SQLiteStateStore.decodeList(r.text(i, 3) ?? "[]"), defaultScenario: r.text(i, 4),
                    createdAt: Date(millisecondsSince1970: r.int64(i, 5)), lastUsedAt: r.text(i, 6).flatMap(Int64.init).map(Date.init(millisecondsSince1970:)),
                    revokedAt: r.text(i, 7).flatMap(Int64.init).map(Date.init(millisecondsSince1970:)),
                    limits: SQLiteStateStore.decodeLimits(r.text(i, 9) ?? "{}"), admin: r.int64(i, 10) != 0, chat: r.int64(i, 11) != 0)
    }

    public func insertToken(_ token: ClientToken, hash: String) throws {
        do {
            try withConnection { db in
                _ = try db.query("""
                    INSERT INTO client_tokens (id, name, token_hash, scenarios, models, default_scenario, created_at, last_used_at, revoked_at, limits, admin, chat)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                    """, [token.id, token.name, hash, SQLiteStateStore.encodeList(token.scenarios), SQLiteStateStore.encodeList(token.models),
                          token.defaultScenario, String(token.createdAt.millisecondsSince1970), token.lastUsedAt.map { String($0.millisecondsSince1970) },
                          token.revokedAt.map { String($0.millisecondsSince1970) }, token.limits.json().serialized(),
                          token.admin ? "1" : "0", token.chat ? "1" : "0"])
            }
        } catch let error as PostgresError where error.isUniqueViolation && error.message.contains("client_tokens_active_name") {
            throw TokenError.duplicateName(token.name)
        }
    }

    public func token(hash: String) throws -> StoredClientToken? {
        try withConnection { db in
            let r = try db.query("SELECT \(Self.tokenColumns) FROM client_tokens WHERE token_hash = $1", [hash])
            return r.count == 0 ? nil : StoredClientToken(token: Self.token(r, 0), hash: r.text(0, 8) ?? "")
        }
    }

    /// One query per `tokensPerLookup` hashes (`= ANY` of a text array), not a round trip per token.
    public func tokens(hashes: [String]) throws -> [StoredClientToken] {
        try tokens(hashes: hashes, perQuery: Self.tokensPerLookup)
    }

    /// `tokens(hashes:)` with at most `perQuery` hashes in each query (tests use a small one).
    func tokens(hashes: [String], perQuery: Int) throws -> [StoredClientToken] {
        // A hash is 64 hex digits, so it needs no quoting inside an array literal; anything else cannot match one.
        let wellFormed = hashes.filter { TokenDigest(hex: $0) != nil }
        guard !wellFormed.isEmpty else { return [] }
        let perQuery = max(perQuery, 1)
        return try withConnection { db in
            var found: [StoredClientToken] = []
            for start in stride(from: 0, to: wellFormed.count, by: perQuery) {
                let chunk = wellFormed[start..<min(start + perQuery, wellFormed.count)]
                let r = try db.query("SELECT \(Self.tokenColumns) FROM client_tokens WHERE token_hash = ANY($1::text[])",
                                     ["{" + chunk.joined(separator: ",") + "}"])
                found += (0..<r.count).map { StoredClientToken(token: Self.token(r, $0), hash: r.text($0, 8) ?? "") }
            }
            return found
        }
    }

    /// The most hashes `tokens(hashes:)` sends in one query.
    static let tokensPerLookup = 1_000

    public func tokens() throws -> [ClientToken] {
        try withConnection { db in
            let r = try db.query("SELECT \(Self.tokenColumns) FROM client_tokens ORDER BY created_at, id")
            return (0..<r.count).map { Self.token(r, $0) }
        }
    }

    public func activeTokenHashes(limit: Int) throws -> [String] {
        try withConnection { db in
            let r = try db.query("SELECT token_hash FROM client_tokens WHERE revoked_at IS NULL ORDER BY last_used_at DESC NULLS LAST LIMIT $1", [String(limit)])
            return (0..<r.count).compactMap { r.text($0, 0) }
        }
    }

    public func activeTokenHashes(createdSince since: Date, limit: Int) throws -> [CreatedTokenHash] {
        try withConnection { db in
            let r = try db.query("SELECT token_hash, created_at FROM client_tokens WHERE created_at >= $1 AND revoked_at IS NULL ORDER BY created_at LIMIT $2",
                                 [String(since.millisecondsSince1970), String(limit)])
            return (0..<r.count).compactMap { i in
                r.text(i, 0).map { CreatedTokenHash(hash: $0, createdAt: Date(millisecondsSince1970: r.int64(i, 1))) }
            }
        }
    }

    public func revokeToken(named name: String, at date: Date) throws -> ClientToken? {
        try withConnection { db in
            let r = try db.query("UPDATE client_tokens SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL RETURNING \(Self.tokenColumns)",
                                 [String(date.millisecondsSince1970), name])
            return r.count == 0 ? nil : Self.token(r, 0)
        }
    }

    public func updateTokenLimits(named name: String, _ limits: TokenLimits) throws -> ClientToken? {
        try withConnection { db in
            let r = try db.query("UPDATE client_tokens SET limits = $1 WHERE name = $2 AND revoked_at IS NULL RETURNING \(Self.tokenColumns)",
                                 [limits.json().serialized(), name])
            return r.count == 0 ? nil : Self.token(r, 0)
        }
    }

    public func markTokensUsed(_ uses: [String: Date]) throws {
        guard !uses.isEmpty else { return }
        try withConnection { db in
            try db.transaction {
                for (id, date) in uses {
                    try db.query("UPDATE client_tokens SET last_used_at = greatest(coalesce(last_used_at, 0), $1::bigint) WHERE id = $2",
                                 [String(date.millisecondsSince1970), id])
                }
            }
        }
    }

    // MARK: Usage

    public func recordUsage(_ record: UsageRecord) throws {
        try recordUsage([record])
    }

    /// One `COPY` per batch: PostgreSQL's bulk-load path (decision 0031 measured the multi-row INSERT it replaces at
    /// ~70 µs of server CPU per row at 32 connections). Written exactly once or not at all, also when the connection is
    /// lost while the server commits (decision 0139): a batch whose commit's outcome was not heard is looked up by its
    /// transaction's id before anything is written again, and its records are not written twice.
    public func recordUsage(_ records: [UsageRecord]) throws {
        guard !records.isEmpty else { return }
        var rows = Self.copyRows(records)
        var totals = UsageRollup.rows(for: records)
        let now = Date().millisecondsSince1970
        let prune = rollupPrune.isDue(now: now)
        try withConnection { db in
            let alreadyWritten = try settleEarlierBatch(on: db, before: records)
            let pending = records.dropFirst(alreadyWritten)
            guard !pending.isEmpty else { return }
            if alreadyWritten > 0 {
                rows = Self.copyRows(pending)
                totals = UsageRollup.rows(for: Array(pending))
            }
            var transactionId = ""
            do {
                try db.identifiedTransaction { id in
                    transactionId = id
                    try db.copy("""
                        COPY usage_records (occurred_at, token_id, request_id, scenario, provider, model, input_tokens, output_tokens,
                            cached_input_tokens, cache_write_tokens, reasoning_tokens, cost_microdollars, duration_ms, outcome, kind, call_index,
                            token_name, surface, stream, status, attempts, skills_run) FROM STDIN
                        """, data: rows)
                    // In statements of at most `upsertRows` rows: a batch written after an outage may hold many minutes of
                    // many tokens, and a statement takes at most 65,535 parameters (8 per row).
                    for start in stride(from: 0, to: totals.count, by: UsageRollup.postgresUpsertRows) {
                        let upsert = UsageRollup.postgresUpsert(Array(totals[start..<min(totals.count, start + UsageRollup.postgresUpsertRows)]))
                        try db.query(upsert.sql, upsert.params)
                    }
                    if prune {
                        try db.query("DELETE FROM usage_rollup WHERE period = 'minute' AND bucket < $1",
                                     [String(now - UsageRollup.minuteRetention)])
                    }
                }
            } catch let error as PostgresError where error.commitOutcomeUnknown {
                try settleLostCommit(error, of: transactionId, records: Array(pending), on: db)
            }
        }
    }

    /// The batch's rows in COPY's text format, written field by field (numbers as digits straight into the buffer): no
    /// array of strings per row.
    private static func copyRows<Records: Collection<UsageRecord>>(_ records: Records) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(records.count * 256)
        func text(_ value: String?) { PostgresConnection.copyField(value, into: &data); data.append(0x09) }
        func int<I: BinaryInteger>(_ value: I) { PostgresConnection.copyInteger(value, into: &data); data.append(0x09) }
        for r in records {
            int(r.occurredAt.millisecondsSince1970); text(r.tokenId); text(r.requestId); text(r.scenario); text(r.provider); text(r.model)
            int(r.usage.inputTokens); int(r.usage.outputTokens); int(r.usage.cachedInputTokens); int(r.usage.cacheWriteTokens)
            int(r.usage.reasoningTokens)
            if let cost = r.costMicrodollars { int(cost) } else { text(nil) }
            int(r.durationMilliseconds); text(r.outcome); text(r.kind.rawValue); int(r.callIndex); text(r.tokenName); text(r.surface)
            int(r.stream ? 1 : 0); int(r.status); int(r.attempts)
            PostgresConnection.copyField(r.skillsRun.isEmpty ? "[]" : SQLiteStateStore.encodeList(r.skillsRun), into: &data)
            data.append(0x0A)
        }
        return data
    }

    public func usageSummary(tokenId: String?, since: Date) throws -> UsageSummary {
        if let tokenId { return try summary(.token, tokenId, since: since) }
        return try summary("", [String(since.millisecondsSince1970)])
    }

    public func usageSummary(scenario: String, since: Date) throws -> UsageSummary {
        try summary(.scenario, scenario, since: since)
    }

    /// Usage since `since`: from the running totals when `since` starts a minute or a day they keep (the limits'
    /// windows), else summed over the ledger's rows (`UsageRollup`).
    private func summary(_ scope: UsageRollup.Scope, _ subject: String, since: Date) throws -> UsageSummary {
        guard let period = UsageRollup.period(since: since, now: Date()) else {
            return try summary("AND \(scope == .token ? "token_id" : "scenario") = $2", [String(since.millisecondsSince1970), subject])
        }
        return try withConnection { db in
            let r = try db.query("""
                SELECT coalesce(sum(requests), 0), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cost_microdollars), 0)
                FROM usage_rollup WHERE scope = $1 AND subject = $2 AND period = $3 AND bucket >= $4
                """, [scope.rawValue, subject, period.rawValue, String(since.millisecondsSince1970)])
            return UsageSummary(requests: Int(r.int64(0, 0)), inputTokens: Int(r.int64(0, 1)), outputTokens: Int(r.int64(0, 2)),
                                costMicrodollars: r.int64(0, 3))
        }
    }

    private func summary(_ filter: String, _ params: [String?]) throws -> UsageSummary {
        try withReportConnection { db in
            let r = try db.query("""
                SELECT count(*) FILTER (WHERE outcome != 'rate_limited'), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cost_microdollars), 0)
                FROM usage_records WHERE kind != 'call' AND occurred_at >= $1 \(filter)
                """, params)
            return UsageSummary(requests: Int(r.int64(0, 0)), inputTokens: Int(r.int64(0, 1)), outputTokens: Int(r.int64(0, 2)),
                                costMicrodollars: r.int64(0, 3))
        }
    }

    /// A row's UTC day (`YYYY-MM-DD`), for `UsageGrouping.reportSQL`.
    private static let day = "to_char(to_timestamp(occurred_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')"

    public func usageReportPerDay(since: Date, by grouping: UsageGrouping) throws -> [UsageDayRow] {
        let (key, rows) = grouping.reportSQL(day: Self.day)
        return try withReportConnection { db in
            let r = try db.query("""
                SELECT \(Self.day) AS d, \(key) AS k, count(*), sum(CASE WHEN outcome != 'ok' THEN 1 ELSE 0 END), sum(input_tokens), sum(output_tokens),
                       sum(cached_input_tokens), sum(reasoning_tokens), coalesce(sum(cost_microdollars), 0) AS cost
                FROM usage_records WHERE occurred_at >= $1 AND \(rows) GROUP BY d, k ORDER BY d, cost DESC, k
                """, [String(since.millisecondsSince1970)])
            return (0..<r.count).map { i in
                UsageDayRow(day: r.text(i, 0) ?? "-", row: UsageReportRow(
                    key: r.text(i, 1) ?? "-", requests: Int(r.int64(i, 2)), errors: Int(r.int64(i, 3)), inputTokens: Int(r.int64(i, 4)),
                    outputTokens: Int(r.int64(i, 5)), cachedInputTokens: Int(r.int64(i, 6)), reasoningTokens: Int(r.int64(i, 7)),
                    costMicrodollars: r.int64(i, 8)))
            }
        }
    }

    public func usageReport(since: Date, by grouping: UsageGrouping) throws -> [UsageReportRow] {
        let (key, rows) = grouping.reportSQL(day: Self.day)
        return try withReportConnection { db in
            let r = try db.query("""
                SELECT \(key) AS k, count(*), sum(CASE WHEN outcome != 'ok' THEN 1 ELSE 0 END), sum(input_tokens), sum(output_tokens),
                       sum(cached_input_tokens), sum(reasoning_tokens), coalesce(sum(cost_microdollars), 0) AS cost
                FROM usage_records WHERE occurred_at >= $1 AND \(rows) GROUP BY k ORDER BY \(grouping == .day ? "k" : "cost DESC, k")
                """, [String(since.millisecondsSince1970)])
            return (0..<r.count).map { i in
                UsageReportRow(key: r.text(i, 0) ?? "-", requests: Int(r.int64(i, 1)), errors: Int(r.int64(i, 2)), inputTokens: Int(r.int64(i, 3)),
                               outputTokens: Int(r.int64(i, 4)), cachedInputTokens: Int(r.int64(i, 5)), reasoningTokens: Int(r.int64(i, 6)),
                               costMicrodollars: r.int64(i, 7))
            }
        }
    }
}
