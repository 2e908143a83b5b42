extension UsageRollup {
    /// The most rows one PostgreSQL upsert statement adds (8 parameters each, PostgreSQL allows 65,535 per statement).
    static let postgresUpsertRows = 1_000

    /// One PostgreSQL statement adding `rows` (at most a few per subject per batch) to the totals.
    static func postgresUpsert(_ rows: [Row]) -> (sql: String, params: [String?]) {
        var values: [String] = []
        var params: [String?] = []
        for row in rows {
            let n = params.count
            values.append("($\(n + 1), $\(n + 2), $\(n + 3), $\(n + 4)::bigint, $\(n + 5)::bigint, $\(n + 6)::bigint, $\(n + 7)::bigint, $\(n + 8)::bigint)")
            params += [row.key.scope.rawValue, row.key.subject, row.key.period.rawValue, String(row.key.bucket), String(row.totals.requests),
                       String(row.totals.inputTokens), String(row.totals.outputTokens), String(row.totals.costMicrodollars)]
        }
        let sql = """
            INSERT INTO usage_rollup (scope, subject, period, bucket, requests, input_tokens, output_tokens, cost_microdollars)
            VALUES \(values.joined(separator: ", "))
            ON CONFLICT (scope, subject, period, bucket) DO UPDATE SET
                requests = usage_rollup.requests + EXCLUDED.requests,
                input_tokens = usage_rollup.input_tokens + EXCLUDED.input_tokens,
                output_tokens = usage_rollup.output_tokens + EXCLUDED.output_tokens,
                cost_microdollars = usage_rollup.cost_microdollars + EXCLUDED.cost_microdollars
            """
        return (sql, params)
    }
}
