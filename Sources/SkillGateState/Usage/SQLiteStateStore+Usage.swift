import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

extension SQLiteStateStore {
    public func recordUsage(_ record: UsageRecord) throws {
        try recordUsage([record])
    }

    /// Appends `records` in one transaction (the ledger writer's batches): one fsync-free WAL commit for all, with the
    /// running totals they add (`UsageRollup`) in the same transaction.
    public func recordUsage(_ records: [UsageRecord]) throws {
        guard !records.isEmpty else { return }
        let totals = UsageRollup.rows(for: records)
        let now = Date().millisecondsSince1970
        let prune = rollupPrune.isDue(now: now)
        try withWriteTransaction { db in
            var next = records.startIndex
            while next < records.endIndex {
                let rows = min(Self.rowsPerInsert, records.endIndex - next)
                let insert = try db.statement(Self.insertSQL[rows])
                insert.reset()
                for (row, record) in records[next..<(next + rows)].enumerated() {
                    try Self.bind(record, to: insert, after: Int32(row * Self.usageColumns.count))
                }
                while try insert.step() {}
                insert.reset()
                next += rows
            }
            let upsert = try db.statement("""
                INSERT INTO usage_rollup (scope, subject, period, bucket, requests, input_tokens, output_tokens, cost_microdollars)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (scope, subject, period, bucket) DO UPDATE SET
                    requests = requests + excluded.requests, input_tokens = input_tokens + excluded.input_tokens,
                    output_tokens = output_tokens + excluded.output_tokens, cost_microdollars = cost_microdollars + excluded.cost_microdollars
                """)
            for row in totals {
                try upsert.run([.text(row.key.scope.rawValue), .text(row.key.subject), .text(row.key.period.rawValue), .integer(row.key.bucket),
                                .integer(row.totals.requests), .integer(row.totals.inputTokens), .integer(row.totals.outputTokens),
                                .integer(row.totals.costMicrodollars)])
            }
            if prune {
                try db.statement("DELETE FROM usage_rollup WHERE period = 'minute' AND bucket < ?")
                    .run([.integer(now - UsageRollup.minuteRetention)])
            }
        }
    }

    /// The ledger's columns, in the order `bind` binds them.
    static let usageColumns = ["occurred_at", "token_id", "request_id", "scenario", "provider", "model", "input_tokens",
                               "output_tokens", "cached_input_tokens", "cache_write_tokens", "reasoning_tokens", "cost_microdollars",
                               "duration_ms", "outcome", "kind", "call_index", "token_name", "surface", "stream", "status",
                               "attempts", "skills_run"]

    /// Rows per `INSERT`: SQLite's work per statement run (reset, starting the program, opening the table and its
    /// index) is paid once for this many rows instead of once per row (decision 0042).
    static let rowsPerInsert = 32

    /// `insertSQL[n]`: the `INSERT` of `n` rows (1...rowsPerInsert). The statements are prepared once per connection.
    static let insertSQL: [String] = {
        let row = "(" + Array(repeating: "?", count: usageColumns.count).joined(separator: ", ") + ")"
        let head = "INSERT INTO usage_records (" + usageColumns.joined(separator: ", ") + ") VALUES "
        return [""] + (1...rowsPerInsert).map { head + Array(repeating: row, count: $0).joined(separator: ", ") }
    }()

    /// Binds one record's columns one by one to the parameters after `offset` (no array of values per row: this runs
    /// for every request).
    private static func bind(_ r: UsageRecord, to insert: SQLiteStatement, after offset: Int32) throws(SQLiteError) {
        var column = offset
        func bind(_ value: SQLiteValue) throws(SQLiteError) {
            column += 1
            try insert.bind(value, at: column)
        }
        try bind(.integer(r.occurredAt.millisecondsSince1970)); try bind(.optionalText(r.tokenId)); try bind(.optionalText(r.requestId))
        try bind(.optionalText(r.scenario)); try bind(.optionalText(r.provider)); try bind(.optionalText(r.model))
        try bind(.int(r.usage.inputTokens)); try bind(.int(r.usage.outputTokens)); try bind(.int(r.usage.cachedInputTokens))
        try bind(.int(r.usage.cacheWriteTokens)); try bind(.int(r.usage.reasoningTokens)); try bind(.int64(r.costMicrodollars))
        try bind(.int(r.durationMilliseconds)); try bind(.text(r.outcome)); try bind(.text(r.kind.rawValue)); try bind(.int(r.callIndex))
        try bind(.optionalText(r.tokenName)); try bind(.optionalText(r.surface)); try bind(.int(r.stream ? 1 : 0)); try bind(.int(r.status))
        try bind(.int(r.attempts)); try bind(.text(r.skillsRun.isEmpty ? "[]" : Self.encodeList(r.skillsRun)))
    }

    public func usageSummary(tokenId: String?, since: Date) throws -> UsageSummary {
        guard let tokenId else { return try rowSums("", [], since: since) }
        return try summary(.token, tokenId, since: since)
    }

    public func usageSummary(scenario: String, since: Date) throws -> UsageSummary {
        try summary(.scenario, scenario, since: since)
    }

    /// Usage of one token or scenario since `since`: from the running totals when `since` starts a minute or a day
    /// they keep (the limits' windows), else summed over the ledger's rows.
    private func summary(_ scope: UsageRollup.Scope, _ subject: String, since: Date) throws -> UsageSummary {
        guard let period = UsageRollup.period(since: since, now: Date()) else {
            return try rowSums("AND \(scope == .token ? "token_id" : "scenario") = ?", [.text(subject)], since: since)
        }
        return try withConnection { db in
            try db.statement("""
                SELECT coalesce(sum(requests), 0), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cost_microdollars), 0)
                FROM usage_rollup WHERE scope = ? AND subject = ? AND period = ? AND bucket >= ?
                """).firstRow([.text(scope.rawValue), .text(subject), .text(period.rawValue), .integer(since.millisecondsSince1970)]) { row in
                    UsageSummary(requests: Int(row.int64(0)), inputTokens: Int(row.int64(1)), outputTokens: Int(row.int64(2)),
                                 costMicrodollars: row.int64(3))
                } ?? UsageSummary()
        }
    }

    /// Sums of request and run rows (an agent run's `call` rows are inside its run row); `requests` leaves out the
    /// requests refused with 429 (they were not admitted).
    private func rowSums(_ filter: String, _ values: [SQLiteValue], since: Date) throws -> UsageSummary {
        try withReadConnection { db in
            try db.statement("""
                SELECT coalesce(sum(outcome != 'rate_limited'), 0), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0),
                       coalesce(sum(cost_microdollars), 0)
                FROM usage_records WHERE kind != 'call' AND occurred_at >= ? \(filter)
                """).firstRow([.integer(since.millisecondsSince1970)] + values) { row in
                    UsageSummary(requests: Int(row.int64(0)), inputTokens: Int(row.int64(1)), outputTokens: Int(row.int64(2)),
                                 costMicrodollars: row.int64(3))
                } ?? UsageSummary()
        }
    }

    /// A row's UTC day (`YYYY-MM-DD`), for `UsageGrouping.reportSQL`.
    private static let day = "strftime('%Y-%m-%d', occurred_at / 1000, 'unixepoch')"

    public func usageReportPerDay(since: Date, by grouping: UsageGrouping) throws -> [UsageDayRow] {
        let (key, rows) = grouping.reportSQL(day: Self.day)
        return try withReadConnection { db in
            try db.statement("""
                SELECT \(Self.day) AS d, \(key) AS k, count(*), sum(outcome != 'ok'), sum(input_tokens), sum(output_tokens), sum(cached_input_tokens),
                       sum(reasoning_tokens), coalesce(sum(cost_microdollars), 0)
                FROM usage_records WHERE occurred_at >= ? AND \(rows) GROUP BY d, k ORDER BY d, 9 DESC, k
                """).rows([.integer(since.millisecondsSince1970)]) { row in
                    UsageDayRow(day: row.text(0), row: UsageReportRow(
                        key: row.text(1), requests: Int(row.int64(2)), errors: Int(row.int64(3)), inputTokens: Int(row.int64(4)),
                        outputTokens: Int(row.int64(5)), cachedInputTokens: Int(row.int64(6)), reasoningTokens: Int(row.int64(7)),
                        costMicrodollars: row.int64(8)))
                }
        }
    }

    public func usageReport(since: Date, by grouping: UsageGrouping) throws -> [UsageReportRow] {
        let (key, rows) = grouping.reportSQL(day: Self.day)
        return try withReadConnection { db in
            try db.statement("""
                SELECT \(key) AS k, count(*), sum(outcome != 'ok'), sum(input_tokens), sum(output_tokens), sum(cached_input_tokens),
                       sum(reasoning_tokens), coalesce(sum(cost_microdollars), 0)
                FROM usage_records WHERE occurred_at >= ? AND \(rows) GROUP BY k ORDER BY \(grouping == .day ? "k" : "8 DESC, k")
                """).rows([.integer(since.millisecondsSince1970)]) { row in
                    UsageReportRow(key: row.text(0), requests: Int(row.int64(1)), errors: Int(row.int64(2)), inputTokens: Int(row.int64(3)),
                                   outputTokens: Int(row.int64(4)), cachedInputTokens: Int(row.int64(5)), reasoningTokens: Int(row.int64(6)),
                                   costMicrodollars: row.int64(7))
                }
        }
    }
}
