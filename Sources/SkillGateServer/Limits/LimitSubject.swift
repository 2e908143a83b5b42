import SkillGateState

/// Whose limits a counter holds: one client token, or one scenario (all tokens together).
struct LimitSubject: Hashable, Sendable {
    enum Kind: String, Sendable {
        case token
        case scenario
    }

    let kind: Kind
    /// The token's id or the scenario's name: the counters' key and the ledger's filter.
    let id: String
    /// What messages call it (the token's name, the scenario's name).
    let name: String

    /// Equal when kind and id are (the name is what messages say, not part of the key): hashing one string, not two,
    /// on every request's lookups.
    static func == (a: LimitSubject, b: LimitSubject) -> Bool { a.kind == b.kind && a.id == b.id }

    func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(id)
    }

    /// How a message names it: `token "ios-app"`, `scenario "support"`.
    var described: String { "\(kind.rawValue) \"\(name)\"" }

    /// The command that raises a limit of this subject.
    func howToRaise(_ limit: LimitName) -> String {
        switch kind {
        case .token: "ask the operator to raise it (`skillgate tokens update \(name) \(limit.flag) N`)"
        case .scenario: "ask the operator to raise `scenarios.\(name).limits.\(limit.rawValue)` in the config"
        }
    }
}

/// The limits and budgets by their config and `GET /v1/limits` names.
enum LimitName: String, Sendable, CaseIterable {
    case requestsPerMinute = "requests_per_minute"
    case tokensPerMinute = "tokens_per_minute"
    case concurrentRequests = "concurrent_requests"
    case concurrentStreams = "concurrent_streams"
    case budgetPerDay = "budget_usd_per_day"
    case budgetPerMonth = "budget_usd_per_month"

    /// The `skillgate tokens create/update` flag that sets it.
    var flag: String {
        switch self {
        case .requestsPerMinute: "--rpm"
        case .tokensPerMinute: "--tpm"
        case .concurrentRequests: "--concurrent"
        case .concurrentStreams: "--concurrent-streams"
        case .budgetPerDay: "--budget-day"
        case .budgetPerMonth: "--budget-month"
        }
    }

    var isBudget: Bool { self == .budgetPerDay || self == .budgetPerMonth }
}

extension TokenLimits {
    /// The value set for `name` (budgets in microdollars), nil when unset.
    func value(_ name: LimitName) -> Int64? {
        switch name {
        case .requestsPerMinute: requestsPerMinute.map(Int64.init)
        case .tokensPerMinute: tokensPerMinute.map(Int64.init)
        case .concurrentRequests: concurrentRequests.map(Int64.init)
        case .concurrentStreams: concurrentStreams.map(Int64.init)
        case .budgetPerDay: UsageRecord.microdollars(budgetUSDPerDay)
        case .budgetPerMonth: UsageRecord.microdollars(budgetUSDPerMonth)
        }
    }
}
