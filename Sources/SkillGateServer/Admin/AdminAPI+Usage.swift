import FoundationEssentials
import SkillGateCore
import SkillGateState

/// `/admin/api/usage`, `/admin/api/limits`, `/admin/api/requests`: what was used and spent (the ledger's report
/// queries, as `skillgate usage`), the limits and budgets with what is left, and the most recent requests.
extension AdminAPI {
    func usage(_ query: AdminQuery) throws(GatewayError) -> JSONValue {
        let byName = query["by"] ?? "day"
        guard let grouping = UsageGrouping(rawValue: byName) else {
            throw GatewayError.invalidRequest("query parameter by must be one of \(UsageGrouping.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(byName.prefix(40))\"", param: "by")
        }
        let days = try query.int("days", in: 1...366, fallback: 30)
        // From midnight UTC `days - 1` days ago: whole days, as the chart shows them.
        let today = (services.now().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        let since = Date(timeIntervalSince1970: today - Double(days - 1) * 86_400)
        let perDay = try query.bool("per_day", fallback: false)
        services.ledger?.flush()
        let data: [JSONValue]
        if perDay {
            data = try Self.store { try services.tokens.store.usageReportPerDay(since: since, by: grouping) }.map { Self.json($0.row, day: $0.day) }
        } else {
            data = try Self.store { try services.tokens.store.usageReport(since: since, by: grouping) }.map { Self.json($0, day: nil) }
        }
        return ["object": "usage", "by": .string(grouping.rawValue), "per_day": .bool(perDay), "since": .string(RequestLog.timestamp(since)),
                "days": .int(days), "data": .array(data)]
    }

    /// A report row; with `day` when the report is split by day.
    static func json(_ row: UsageReportRow, day: String?) -> JSONValue {
        var o = JSONObject()
        o.append("day", ifPresent: day.map(JSONValue.string))
        o.append("key", .string(row.key))
        o.append("requests", .int(row.requests))
        o.append("errors", .int(row.errors))
        o.append("input_tokens", .int(row.inputTokens))
        o.append("output_tokens", .int(row.outputTokens))
        o.append("cached_input_tokens", .int(row.cachedInputTokens))
        o.append("reasoning_tokens", .int(row.reasoningTokens))
        o.append("cost_usd", .double(Double(row.costMicrodollars) / 1e6))
        return .object(o)
    }

    /// Every active token's limits (its own over the config's `token_limits`) and every scenario's, with what is used
    /// and left in this instance's counters and when each resets.
    func limitStatus() -> JSONValue {
        var rows: [JSONValue] = []
        for token in (try? services.tokens.list()) ?? [] where !token.isRevoked {
            let limits = token.limits.over(services.config.tokenLimits)
            guard !limits.isEmpty else { continue }
            rows += self.limits.counters.statusReadingHere(LimitSubject(kind: .token, id: token.id, name: token.name), limits).map { $0.json() }
        }
        for (name, scenario) in services.config.scenarios.sorted(by: { $0.key < $1.key }) where !scenario.limits.isEmpty {
            rows += self.limits.counters.statusReadingHere(LimitSubject(kind: .scenario, id: name, name: name), scenario.limits).map { $0.json() }
        }
        return ["object": "limits", "data": .array(rows)]
    }

    func recentRequests(_ query: AdminQuery) throws(GatewayError) -> JSONValue {
        let limit = try query.int("limit", in: 1...1000, fallback: 100)
        return ["object": "list", "data": .array(services.traffic.recent(limit: limit).map { $0.json() })]
    }
}
