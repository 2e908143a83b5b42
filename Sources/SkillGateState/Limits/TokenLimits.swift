import SkillGateCore

/// Limits and budgets of one client token or one scenario. Every field is optional: `nil` means "no limit"
/// (or, for a token, "the config's `token_limits` default"). Stored with the token as a JSON object
/// (`client_tokens.limits`), read from the config (`token_limits`, `scenarios.<name>.limits`).
public struct TokenLimits: Sendable, Hashable {
    /// Requests admitted per UTC clock minute.
    public var requestsPerMinute: Int?
    /// Input plus output tokens per UTC clock minute (counted when each answer is in).
    public var tokensPerMinute: Int?
    /// Requests answering at once (streams included).
    public var concurrentRequests: Int?
    /// Streamed answers (and agent runs) at once.
    public var concurrentStreams: Int?
    /// US dollars per UTC day.
    public var budgetUSDPerDay: Double?
    /// US dollars per UTC calendar month.
    public var budgetUSDPerMonth: Double?

    public init(requestsPerMinute: Int? = nil, tokensPerMinute: Int? = nil, concurrentRequests: Int? = nil, concurrentStreams: Int? = nil,
                budgetUSDPerDay: Double? = nil, budgetUSDPerMonth: Double? = nil) {
        self.requestsPerMinute = requestsPerMinute
        self.tokensPerMinute = tokensPerMinute
        self.concurrentRequests = concurrentRequests
        self.concurrentStreams = concurrentStreams
        self.budgetUSDPerDay = budgetUSDPerDay
        self.budgetUSDPerMonth = budgetUSDPerMonth
    }

    /// The JSON keys, as config, `GET /v1/limits` and the stored column spell them.
    public static let keys: [String] = ["requests_per_minute", "tokens_per_minute", "concurrent_requests", "concurrent_streams",
                                        "budget_usd_per_day", "budget_usd_per_month"]

    /// The largest budget a limit may set, a billion dollars a day or a month: far above any real spend, and far below
    /// the 9.2e12 dollars at which a budget's microdollars leave 64 bits (someone typing `1e13` to mean "unlimited"
    /// crashed the gateway on the token's next request; decision 0096). No budget at all is written by leaving it out.
    public static let maximumBudgetUSD: Double = 1_000_000_000

    /// Whether no limit is set.
    public var isEmpty: Bool { self == TokenLimits() }

    /// These limits, with `defaults` filling the ones not set.
    public func over(_ defaults: TokenLimits) -> TokenLimits {
        TokenLimits(requestsPerMinute: requestsPerMinute ?? defaults.requestsPerMinute, tokensPerMinute: tokensPerMinute ?? defaults.tokensPerMinute,
                    concurrentRequests: concurrentRequests ?? defaults.concurrentRequests,
                    concurrentStreams: concurrentStreams ?? defaults.concurrentStreams,
                    budgetUSDPerDay: budgetUSDPerDay ?? defaults.budgetUSDPerDay, budgetUSDPerMonth: budgetUSDPerMonth ?? defaults.budgetUSDPerMonth)
    }

    /// The limits as a JSON object with the set keys only; budgets as plain decimal dollars (`BudgetAmount.text`), so
    /// what is shown can be sent back.
    public func json() -> JSONValue {
        var o = JSONObject()
        o.append("requests_per_minute", ifPresent: requestsPerMinute.map { .int($0) })
        o.append("tokens_per_minute", ifPresent: tokensPerMinute.map { .int($0) })
        o.append("concurrent_requests", ifPresent: concurrentRequests.map { .int($0) })
        o.append("concurrent_streams", ifPresent: concurrentStreams.map { .int($0) })
        o.append("budget_usd_per_day", ifPresent: budgetUSDPerDay.map { .number(BudgetAmount.text($0)) })
        o.append("budget_usd_per_month", ifPresent: budgetUSDPerMonth.map { .number(BudgetAmount.text($0)) })
        return .object(o)
    }

    /// Reads a JSON object of limits; `null` leaves a limit unset. Throws `TokenError.invalidLimit` naming the key for
    /// an unknown key, a wrong type, a negative value, or a budget that is not plain decimal dollars or is over
    /// `maximumBudgetUSD` (`BudgetAmount`; `where` says where the object came from, for the message). With
    /// `holdingBudgets`, any finite budget of 0 or more is read, held at the maximum: for limits stored before these
    /// rules, which must not lose the token's other limits.
    public init(json: JSONValue, where place: String, holdingBudgets: Bool = false) throws(TokenError) {
        guard case .object(let o) = json else { throw .invalidLimit("\(place) must be an object with keys \(Self.keys.joined(separator: ", "))") }
        self.init()
        for member in o {
            guard Self.keys.contains(member.key) else {
                throw .invalidLimit("\(place): unknown limit \"\(member.key)\"; the limits are \(Self.keys.joined(separator: ", "))")
            }
            if member.value.isNull { continue }  // `null` leaves the limit unset (`PUT .../limits` clears one with it)
            if member.key.hasPrefix("budget") {
                // "none", as the CLI's `--budget-day none` and the README have it: no budget.
                if member.value.stringValue?.lowercased() == "none" { continue }
                let budget = try Self.budget(member.value, named: "\(place).\(member.key)", holding: holdingBudgets)
                if member.key == "budget_usd_per_day" { budgetUSDPerDay = budget } else { budgetUSDPerMonth = budget }
            } else {
                guard let v = member.value.intValue, v >= 0 else {
                    throw .invalidLimit("\(place).\(member.key) must be a whole number, 0 or more (got \(member.value.serialized()))")
                }
                switch member.key {
                case "requests_per_minute": requestsPerMinute = v
                case "tokens_per_minute": tokensPerMinute = v
                case "concurrent_requests": concurrentRequests = v
                default: concurrentStreams = v
                }
            }
        }
    }

    /// How to have no budget, as every budget refusal ends.
    private static let noBudget = "for no budget, leave the key out or give null or \"none\""

    /// A budget's value: plain decimal dollars (`BudgetAmount`), or with `holding`, any finite number of 0 or more held
    /// at the largest budget.
    private static func budget(_ value: JSONValue, named name: String, holding: Bool) throws(TokenError) -> Double {
        if holding, let v = value.doubleValue, v >= 0, v.isFinite { return min(v, maximumBudgetUSD) }
        if case .string(let text) = value {
            // The text itself as the example when it is an amount ("5"), else the usual ones ("unlimited").
            let example = (try? BudgetAmount.dollars(text)) != nil ? text : BudgetAmount.examples
            throw .invalidLimit("\(name) must be a JSON number, not text (got \(value.serialized())): write it without quotes, like \(example); \(noBudget)")
        }
        guard case .number(let text) = value else {
            throw .invalidLimit("\(name) \(BudgetAmount.Refusal.notPlainDecimal) (got \(value.serialized())); \(noBudget)")
        }
        do throws(BudgetAmount.Refusal) {
            return try BudgetAmount.dollars(text)
        } catch {
            throw .invalidLimit("\(name) \(error) (got \(text)); \(noBudget)")
        }
    }
}
