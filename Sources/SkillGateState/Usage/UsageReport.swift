/// What `skillgate usage --by ...` groups by.
public enum UsageGrouping: String, Sendable, CaseIterable {
    /// The client token's name.
    case token
    /// `provider/model`; agent runs count each model call under its own model.
    case model
    case scenario
    /// The UTC day (`2026-12-01`).
    case day
}

/// One row of a usage report: a group and its sums.
public struct UsageReportRow: Sendable, Hashable {
    /// The token name, model, scenario or day (`-` when the records have none).
    public var key: String
    /// Requests (model calls when grouped by model).
    public var requests: Int
    /// Of those, how many did not end `ok`.
    public var errors: Int
    public var inputTokens: Int
    public var outputTokens: Int
    public var cachedInputTokens: Int
    public var reasoningTokens: Int
    /// Known costs, in millionths of a US dollar.
    public var costMicrodollars: Int64

    public init(key: String, requests: Int, errors: Int, inputTokens: Int, outputTokens: Int, cachedInputTokens: Int, reasoningTokens: Int,
                costMicrodollars: Int64) {
        self.key = key
        self.requests = requests
        self.errors = errors
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.cachedInputTokens = cachedInputTokens
        self.reasoningTokens = reasoningTokens
        self.costMicrodollars = costMicrodollars
    }
}

/// One group's sums on one UTC day: a report split by day (the console's per-day charts by token, model or scenario).
public struct UsageDayRow: Sendable, Hashable {
    /// The UTC day (`2026-12-01`).
    public var day: String
    public var row: UsageReportRow

    public init(day: String, row: UsageReportRow) {
        self.day = day
        self.row = row
    }
}

extension UsageGrouping {
    /// The SQL of a report's group key and which rows it sums, for both stores; `day` is the store's expression
    /// for a row's UTC day (`YYYY-MM-DD`).
    func reportSQL(day: String) -> (key: String, rows: String) {
        switch self {
        case .token: ("coalesce(token_name, token_id, CASE kind WHEN 'examples' THEN '(skill examples)' ELSE '-' END)", "kind != 'call'")
        case .scenario: ("coalesce(scenario, '-')", "kind != 'call'")
        case .day: (day, "kind != 'call'")
        // Each model call under its own model: an agent run's calls, and every request that is no agent run and was
        // not answered by the response cache (no model call; decision 0140).
        case .model: ("coalesce(model, '-')", "kind NOT IN ('run', 'cache_hit')")
        }
    }
}
