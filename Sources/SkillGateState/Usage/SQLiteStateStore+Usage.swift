import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

extension SQLiteStateStore {
    public func recordUsage(_ record: UsageRecord) throws {
        try recordUsage([record])
    }

    /// Appends `records` in one transaction (the ledger writer's batches): one fsync-free WAL commit for all.
    public func recordUsage(_ records: [UsageRecord]) throws {
        guard !records.isEmpty else { return }
        try withConnection { db in
            try db.transaction {
                let insert = try db.statement("""
                    INSERT INTO usage_records (occurred_at, token_id, request_id, scenario, provider, model, input_tokens,
                        output_tokens, cached_input_tokens, cache_write_tokens, reasoning_tokens, cost_microdollars, duration_ms, outcome,
                        kind, call_index, token_name, surface, stream, status, attempts, skills_run)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for record in records {
                    try insert.run([
                        .integer(record.occurredAt.millisecondsSince1970), .optionalText(record.tokenId),
                        .optionalText(record.requestId), .optionalText(record.scenario), .optionalText(record.provider),
                        .optionalText(record.model), .int(record.usage.inputTokens), .int(record.usage.outputTokens),
                        .int(record.usage.cachedInputTokens), .int(record.usage.cacheWriteTokens),
                        .int(record.usage.reasoningTokens), .int64(record.costMicrodollars),
                        .int(record.durationMilliseconds), .text(record.outcome), .text(record.kind.rawValue), .int(record.callIndex),
                        .optionalText(record.tokenName), .optionalText(record.surface), .int(record.stream ? 1 : 0), .int(record.status),
                        .int(record.attempts), .text(Self.encodeList(record.skillsRun)),
                    ])
                }
            }
        }
    }

    public func usageSummary(tokenId: String?, since: Date) throws -> UsageSummary {
        try usageSummary(column: "token_id", equals: tokenId, since: since)
    }

    public func usageSummary(scenario: String, since: Date) throws -> UsageSummary {
        try usageSummary(column: "scenario", equals: scenario, since: since)
    }

    /// Sums of request and run rows (an agent run's `call` rows are inside its run row); `requests` leaves out the
    /// requests refused with 429 (they were not admitted).
    private func usageSummary(column: String, equals value: String?, since: Date) throws -> UsageSummary {
        try withConnection { db in
            let columns = "coalesce(sum(outcome != 'rate_limited'), 0), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cost_microdollars), 0)"
            let summary = { (row: SQLiteStatement) in
                UsageSummary(requests: Int(row.int64(0)), inputTokens: Int(row.int64(1)),
                             outputTokens: Int(row.int64(2)), costMicrodollars: row.int64(3))
            }
            if let value {
                return try db.statement("SELECT \(columns) FROM usage_records WHERE kind != 'call' AND \(column) = ? AND occurred_at >= ?")
                    .firstRow([.text(value), .integer(since.millisecondsSince1970)], summary) ?? UsageSummary()
            }
            return try db.statement("SELECT \(columns) FROM usage_records WHERE kind != 'call' AND occurred_at >= ?")
                .firstRow([.integer(since.millisecondsSince1970)], summary) ?? UsageSummary()
        }
    }

    /// A row's UTC day (`YYYY-MM-DD`), for `UsageGrouping.reportSQL`.
    private static let day = "strftime('%Y-%m-%d', occurred_at / 1000, 'unixepoch')"

    public func usageReportPerDay(since: Date, by grouping: UsageGrouping) throws -> [UsageDayRow] {
        let (key, rows) = grouping.reportSQL(day: Self.day)
        return try withConnection { db in
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
        return try withConnection { db in
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
