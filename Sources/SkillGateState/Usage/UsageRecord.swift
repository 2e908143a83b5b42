import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// One row of the usage ledger: a finished request answered by (at most) one model call (`kind` `.request`), a
/// request that made several (`.run`: the sums of its model calls — an agent run, or a chat whose skills a selector
/// model chose), or one model call of such a request (`.call`, numbered by `callIndex`); a request the response cache
/// answered (`.cacheHit`); or a model call the gateway made on its own account (`.examples`).
public struct UsageRecord: Sendable, Hashable {
    /// A request answered by (at most) one model call, a request of several model calls, one of those calls, or a
    /// call of the gateway's own.
    public enum Kind: String, Sendable, Hashable {
        case request
        case run
        case call
        /// One call writing a skill's example requests (`skill_ranking.examples`, decision 0045): no client's token,
        /// scenario or budget is charged, so it is the operator's spend, kept with the rest (decision 0049).
        case examples
        /// A request the response cache answered (decision 0140): no model call, so no tokens or cost of an answer (a
        /// skill selector's call before it, if any, is its sum and a `call` row). Counted as a request by the token,
        /// scenario and day reports and by request-rate limits; not a model call in the report by model.
        case cacheHit = "cache_hit"
    }

    public var occurredAt: Date
    /// The client token's id, nil for requests without one (local development).
    public var tokenId: String?
    /// SkillGate's request id, for matching log lines.
    public var requestId: String?
    public var scenario: String?
    public var provider: String?
    public var model: String?
    public var usage: Usage
    /// Cost in millionths of a US dollar (integers keep budget sums exact); nil when unknown.
    public var costMicrodollars: Int64?
    public var durationMilliseconds: Int
    /// `ok`, or the `GatewayError.Kind` raw value of the failure (also for a stream that failed after its
    /// status 200 was sent), or `client_gone`.
    public var outcome: String
    public var kind: Kind = .request
    /// 1, 2, ... for the model calls of a run; 0 for request and run rows.
    public var callIndex = 0
    /// The token's name (kept in the row so reports need no join and survive a revocation).
    public var tokenName: String?
    /// `openai`, `anthropic`, `agent`.
    public var surface: String?
    public var stream = false
    /// The HTTP status sent (200 for a stream that started, even when it later failed; see `outcome`).
    public var status = 0
    /// Upstream attempts made (retries and fallbacks included).
    public var attempts = 0
    /// Server-side skills an agent run executed, in order.
    public var skillsRun: [String] = []
    /// Whether the request was admitted against its limits (it counts against requests per minute): set by the gateway
    /// from whether the request got that far. A request refused before (unreadable, out of scope, or over a limit) is
    /// not; a request the provider refused with its own 429 is (decision 0146). Nil (rows made elsewhere): all but
    /// `rate_limited` rows, as before. Not stored: it goes into the running totals as the row is written.
    public var admitted: Bool?
    /// Set by the gateway on a `call` row: its tokens and cost go into the running totals as the row is written, not
    /// only through its run's row. An agent run's calls are written as each is paid for, so gateways sharing the
    /// ledger see a run's spend while it goes on (decision 0148). False (rows made elsewhere): the run's row counts
    /// them, as before. Not stored.
    public var countsInRunningTotals = false
    /// Set by the gateway on a `run` or `cache_hit` row: the sums of its `call` rows that count in the running totals
    /// themselves (`countsInRunningTotals`), which the row's own sums include; the row adds only the rest, so a run is
    /// counted once however its calls were written. Not stored.
    public var countedByCallRows: UsageSummary?

    /// Whether the row counts as an admitted request in the running totals.
    var countsAsAdmitted: Bool { admitted ?? (outcome != "rate_limited") }

    public init(occurredAt: Date, tokenId: String? = nil, requestId: String? = nil, scenario: String? = nil,
                provider: String? = nil, model: String? = nil, usage: Usage = Usage(), costMicrodollars: Int64? = nil,
                durationMilliseconds: Int = 0, outcome: String = "ok") {
        self.occurredAt = occurredAt
        self.tokenId = tokenId
        self.requestId = requestId
        self.scenario = scenario
        self.provider = provider
        self.model = model
        self.usage = usage
        self.costMicrodollars = costMicrodollars
        self.durationMilliseconds = durationMilliseconds
        self.outcome = outcome
    }

    /// Millionths of a dollar for `usd`, rounded to the nearest; held within 64 bits (a budget or a cost of 1e13 dollars
    /// trapped the conversion, decision 0096), and nil for an amount that is not a number.
    public static func microdollars(_ usd: Double?) -> Int64? {
        guard let usd, !usd.isNaN else { return nil }
        return Int64(saturating: usd * 1_000_000)
    }
}

/// Sums over usage records (for budgets and reports).
public struct UsageSummary: Sendable, Hashable {
    public var requests: Int
    public var inputTokens: Int
    public var outputTokens: Int
    /// Sum of known costs, in millionths of a US dollar.
    public var costMicrodollars: Int64

    public init(requests: Int = 0, inputTokens: Int = 0, outputTokens: Int = 0, costMicrodollars: Int64 = 0) {
        self.requests = requests
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.costMicrodollars = costMicrodollars
    }
}
