import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// A request over a limit or budget: which one, of whom, and when it resets. Becomes a 429 in the surface's error
/// shape with `Retry-After` (decision 0027: budgets are 429 too, not 402).
struct LimitRejection: Error, Sendable {
    let subject: LimitSubject
    let limit: LimitName
    /// The limit (microdollars for budgets).
    let max: Int64
    let used: Int64
    let at: Date

    /// Seconds until the limit's window resets; 1 for the concurrency limits (a slot frees when a request ends).
    var retryAfter: Double {
        guard let reset = LimitWindows.reset(of: limit, at: at) else { return 1 }
        return Swift.max(1, reset.timeIntervalSince(at).rounded(.up))
    }

    var message: String {
        let who = subject.described
        let what: String
        switch limit {
        case .requestsPerMinute: what = "rate limit: \(who) may make \(max) requests per minute and has used them"
        case .tokensPerMinute: what = "rate limit: \(who) may use \(max) tokens per minute and has used \(used)"
        case .concurrentRequests: what = "concurrency limit: \(who) may have \(max) requests under way at once"
        case .concurrentStreams: what = "concurrency limit: \(who) may have \(max) streams under way at once"
        case .budgetPerDay: what = "budget: \(who) has spent \(Self.usd(used)) of its \(Self.usd(max)) daily budget"
        case .budgetPerMonth: what = "budget: \(who) has spent \(Self.usd(used)) of its \(Self.usd(max)) monthly budget"
        }
        let when: String
        if let reset = LimitWindows.reset(of: limit, at: at) {
            when = "it resets at \(LimitWindows.iso(reset)) (in \(LimitWindows.span(reset.timeIntervalSince(at))))"
        } else {
            when = "a slot frees when one of them ends"
        }
        return "\(what) (\(limit.rawValue) \(limit.isBudget ? Self.usd(max) : String(max))); \(when); retry then, or \(subject.howToRaise(limit))"
    }

    /// Of two limits a request is over, the one that frees last: the request cannot go through before it does. (Of two
    /// that free together, the first.)
    static func binding(_ first: LimitRejection?, _ second: LimitRejection) -> LimitRejection {
        guard let first else { return second }
        return second.retryAfter > first.retryAfter ? second : first
    }

    /// The 429 the client sees.
    var gatewayError: GatewayError {
        GatewayError(domain: .policy, kind: .rateLimited, status: 429, message: message, retryAfter: retryAfter)
    }

    /// Dollars from microdollars: to the microdollar under a cent (a budget of $0.00001 must not read as $0.0000),
    /// to a hundredth of a cent under a dollar, to the cent above.
    static func usd(_ micro: Int64) -> String {
        CFormat.string(micro < 10_000 ? "$%.6f" : micro < 1_000_000 ? "$%.4f" : "$%.2f", Double(micro) / 1e6)
    }
}
