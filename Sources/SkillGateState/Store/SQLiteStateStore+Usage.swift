import FoundationEssentials
import Glibc
import Dispatch

extension SQLiteStateStore {
    public func recordUsage(_ record: UsageRecord) throws {
        try withConnection { db in
            try db.statement("""
                INSERT INTO usage_records (occurred_at, token_id, request_id, scenario, provider, model, input_tokens,
                    output_tokens, cached_input_tokens, cache_write_tokens, reasoning_tokens, cost_microdollars, duration_ms, outcome)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).run([
                    .integer(record.occurredAt.millisecondsSince1970), .optionalText(record.tokenId),
                    .optionalText(record.requestId), .optionalText(record.scenario), .optionalText(record.provider),
                    .optionalText(record.model), .int(record.usage.inputTokens), .int(record.usage.outputTokens),
                    .int(record.usage.cachedInputTokens), .int(record.usage.cacheWriteTokens),
                    .int(record.usage.reasoningTokens), .int64(record.costMicrodollars),
                    .int(record.durationMilliseconds), .text(record.outcome),
                ])
        }
    }

    public func usageSummary(tokenId: String?, since: Date) throws -> UsageSummary {
        try withConnection { db in
            let columns = "count(*), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cost_microdollars), 0)"
            let summary = { (row: SQLiteStatement) in
                UsageSummary(requests: Int(row.int64(0)), inputTokens: Int(row.int64(1)),
                             outputTokens: Int(row.int64(2)), costMicrodollars: row.int64(3))
            }
            if let tokenId {
                return try db.statement("SELECT \(columns) FROM usage_records WHERE token_id = ? AND occurred_at >= ?")
                    .firstRow([.text(tokenId), .integer(since.millisecondsSince1970)], summary) ?? UsageSummary()
            }
            return try db.statement("SELECT \(columns) FROM usage_records WHERE occurred_at >= ?")
                .firstRow([.integer(since.millisecondsSince1970)], summary) ?? UsageSummary()
        }
    }
}
