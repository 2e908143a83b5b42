import SkillGateState

/// The limit flags of `skillgate tokens create` and `tokens update`: each sets one of the token's limits; `none`
/// clears it (the config's `token_limits` then applies).
enum TokenLimitFlags {
    static let names = ["--rpm", "--tpm", "--concurrent", "--concurrent-streams", "--budget-day", "--budget-month"]

    static let help = """
    Limits (create and update; `none` clears one, so the config's token_limits applies):
      --rpm N                 requests per UTC minute
      --tpm N                 input + output tokens per UTC minute
      --concurrent N          requests under way at once
      --concurrent-streams N  streamed answers and agent runs under way at once
      --budget-day USD        US dollars per UTC day (plain decimal, to the microdollar: 5, 5.25, 0.01)
      --budget-month USD      US dollars per UTC month (likewise)
    """

    /// Whether any limit flag was given.
    static func given(_ args: Arguments) -> Bool { names.contains { args.value($0) != nil } }

    /// `limits` with the flags in `args` applied.
    static func apply(_ args: Arguments, to limits: TokenLimits) throws -> TokenLimits {
        var l = limits
        func whole(_ flag: String) throws -> Int?? {
            guard let v = args.value(flag) else { return .none }
            if v == "none" { return .some(nil) }
            guard let n = Int(v), n >= 0 else { throw UsageError(message: "\(flag) needs a whole number, 0 or more, or `none` (got \"\(v)\")") }
            return .some(n)
        }
        func dollars(_ flag: String) throws -> Double?? {
            guard let v = args.value(flag) else { return .none }
            if v == "none" { return .some(nil) }
            do throws(BudgetAmount.Refusal) {
                // A leading `$` is only the currency sign (`'$5'`); the amount itself is read as everywhere else.
                return .some(try BudgetAmount.dollars(v.hasPrefix("$") ? String(v.dropFirst()) : v))
            } catch {
                throw UsageError(message: "\(flag) \(error) (got \"\(v)\"); for no budget, give `none`")
            }
        }
        if let v = try whole("--rpm") { l.requestsPerMinute = v }
        if let v = try whole("--tpm") { l.tokensPerMinute = v }
        if let v = try whole("--concurrent") { l.concurrentRequests = v }
        if let v = try whole("--concurrent-streams") { l.concurrentStreams = v }
        if let v = try dollars("--budget-day") { l.budgetUSDPerDay = v }
        if let v = try dollars("--budget-month") { l.budgetUSDPerMonth = v }
        return l
    }

    /// `rpm=60 budget/day=$5.00`, or `-` for none.
    static func summary(_ l: TokenLimits) -> String {
        var parts: [String] = []
        if let v = l.requestsPerMinute { parts.append("rpm=\(v)") }
        if let v = l.tokensPerMinute { parts.append("tpm=\(v)") }
        if let v = l.concurrentRequests { parts.append("concurrent=\(v)") }
        if let v = l.concurrentStreams { parts.append("streams=\(v)") }
        if let v = l.budgetUSDPerDay { parts.append("day=$\(BudgetAmount.text(v))") }
        if let v = l.budgetUSDPerMonth { parts.append("month=$\(BudgetAmount.text(v))") }
        return parts.isEmpty ? "-" : parts.joined(separator: ",")
    }
}
