import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// One finished request, as the gateway records it for usage reports and budgets.
public struct UsageRecord: Sendable, Hashable {
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
    /// `ok`, or the `GatewayError.Kind` raw value of the failure.
    public var outcome: String

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
