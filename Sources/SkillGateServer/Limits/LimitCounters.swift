import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateState
import Synchronization

/// The counters behind limits and budgets, in memory, per subject (token or scenario): requests and tokens in the
/// current UTC minute, requests and streams under way, and spend in the current UTC day and month.
///
/// `admit` checks every limit of every subject and counts the request in one step under one lock, so concurrent
/// requests cannot both take the last slot. Tokens and cost are known only when an answer is in: `release` adds
/// them. Hence the overshoot rule (decision 0027): a minute's tokens or a budget are checked before a request
/// starts, so the requests already admitted when the limit is crossed may each overshoot it by at most their own
/// tokens or cost. Counters start from the ledger (this minute's requests and tokens, today's and this month's
/// spend), read once per subject per process — or every `rereadEvery` when several instances share the ledger.
final class LimitCounters: Sendable {
    struct Counts: Sendable {
        var minute: Int64 = 0
        var requests: Int64 = 0
        var tokens: Int64 = 0
        var concurrent: Int64 = 0
        var streams: Int64 = 0
        var day: Int64 = 0
        var daySpent: Int64 = 0
        var month: Int64 = 0
        var monthSpent: Int64 = 0
        /// When the spend was last read from the ledger.
        var readAt: Date?
        /// A re-read of this subject's sums is under way (off the request path); others wait for its result.
        var rereading = false

        /// Starts new windows that began since the last use. Only forward: a re-read that started before a window
        /// began, and lands after, must not take the counts back to the old window.
        mutating func roll(to t: Date) {
            roll(to: LimitWindows.Current(t))
        }

        /// `roll(to:)` with the windows worked out once for all subjects of a request.
        mutating func roll(to w: LimitWindows.Current) {
            if w.minute > minute { minute = w.minute; requests = 0; tokens = 0 }
            if w.day > day { day = w.day; daySpent = 0 }
            if w.month > month { month = w.month; monthSpent = 0 }
        }

        /// Rolls to `w`, then the first limit of `limits` this request would be over, if any.
        mutating func rolledRejection(_ limits: TokenLimits, stream: Bool, subject: LimitSubject, at t: Date,
                                      windows w: LimitWindows.Current) -> LimitRejection? {
            roll(to: w)
            for limit in LimitName.allCases {
                guard let max = limits.value(limit) else { continue }
                if limit == .concurrentStreams && !stream { continue }
                // Requests and slots: one more must fit. Tokens and cost: over once used up (the overshoot rule).
                if used(limit) >= max { return LimitRejection(subject: subject, limit: limit, max: max, used: used(limit), at: t) }
            }
            return nil
        }

        /// Counts an admitted request.
        mutating func admitOne(stream: Bool) {
            requests += 1
            concurrent += 1
            if stream { streams += 1 }
        }

        /// Ends an admitted request in the windows `w`: no longer under way, its tokens and cost counted.
        mutating func release(stream: Bool, tokens: Int, costMicrodollars: Int64, windows w: LimitWindows.Current) {
            roll(to: w)
            concurrent = max(0, concurrent - 1)
            if stream { streams = max(0, streams - 1) }
            self.tokens += Int64(tokens)
            daySpent += costMicrodollars
            monthSpent += costMicrodollars
        }

        /// What counts against `limit` now.
        func used(_ limit: LimitName) -> Int64 {
            switch limit {
            case .requestsPerMinute: requests
            case .tokensPerMinute: tokens
            case .concurrentRequests: concurrent
            case .concurrentStreams: streams
            case .budgetPerDay: daySpent
            case .budgetPerMonth: monthSpent
            }
        }
    }

    /// A subject's sums in the ledger since a date: admitted requests, tokens, microdollars (nil when it cannot be
    /// read: count from zero).
    typealias LedgerSums = @Sendable (LimitSubject, Date) -> UsageSummary?

    private let counts = Mutex<[LimitSubject: Counts]>([:])
    private let now: @Sendable () -> Date
    private let ledgerSums: LedgerSums
    private let rereadEvery: TimeInterval?
    /// Where re-reads run: off the request path, one at a time, so a slow store never holds a request (or several
    /// at once: before, every request arriving while a re-read was due ran the same three sums on the loop thread).
    private let rereads = DispatchQueue(label: "skillgate.limit-rereads")

    /// - Parameter rereadEvery: how often a subject's sums are read again from the ledger (several instances sharing
    ///   a PostgreSQL ledger see each other's requests, tokens and spend this way); nil reads them once per process.
    init(now: @escaping @Sendable () -> Date = { Date() }, rereadEvery: Duration? = nil, ledgerSums: @escaping LedgerSums = { _, _ in nil }) {
        self.now = now
        self.ledgerSums = ledgerSums
        self.rereadEvery = rereadEvery.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
    }

    /// Admits a request against `checks` (subjects with limits) or throws the 429 naming the first limit it is
    /// over. Counts it as under way (and as a stream when `stream`) until `release`.
    func admit(_ checks: [(LimitSubject, TokenLimits)], stream: Bool) throws(LimitRejection) -> LimitTicket {
        guard !checks.isEmpty else { return LimitTicket(subjects: [], stream: stream) }
        let t = now()
        let windows = LimitWindows.Current(t)
        readShared(checks, t)
        // In place (one hash lookup per subject and pass): this runs for every request.
        let rejection = counts.withLock { all -> LimitRejection? in
            for (subject, limits) in checks {
                if let rejection = all[subject, default: Counts()].rolledRejection(limits, stream: stream, subject: subject, at: t,
                                                                                   windows: windows) {
                    return rejection
                }
            }
            for (subject, _) in checks { all[subject, default: Counts()].admitOne(stream: stream) }
            return nil
        }
        if let rejection { throw rejection }
        return LimitTicket(subjects: checks.map(\.0), stream: stream)
    }

    /// Ends a request admitted by `admit`: no longer under way, its tokens and cost counted in the current windows.
    func release(_ ticket: LimitTicket, tokens: Int, costMicrodollars: Int64) {
        guard !ticket.subjects.isEmpty else { return }
        let windows = LimitWindows.Current(now())
        counts.withLock { all in
            for subject in ticket.subjects {
                all[subject, default: Counts()].release(stream: ticket.stream, tokens: tokens, costMicrodollars: costMicrodollars,
                                                        windows: windows)
            }
        }
    }

    /// Each limit of `subject`: its value, what is used and when it resets (for `GET /v1/limits`).
    func status(_ subject: LimitSubject, _ limits: TokenLimits) -> [LimitStatus] {
        let t = now()
        readShared([(subject, limits)], t)
        let c = counts.withLock { all -> Counts in
            var c = all[subject] ?? Counts()
            c.roll(to: t)
            all[subject] = c
            return c
        }
        return LimitName.allCases.compactMap { limit in
            limits.value(limit).map { LimitStatus(subject: subject, limit: limit, max: $0, used: c.used(limit), resetsAt: LimitWindows.reset(of: limit, at: t)) }
        }
    }

    /// Reads a subject's sums from the ledger — this minute's requests and tokens, today's and this month's spend —
    /// the first time it is seen, and with `rereadEvery` again once that much time passed (outside the lock: a store
    /// read is tens of microseconds to a millisecond). A re-read keeps the larger of the ledger's sum and this
    /// process's own count (which also holds what it has not written yet), so instances sharing a ledger see each
    /// other's use within about `rereadEvery` plus the ledger's flush interval.
    private func readShared(_ checks: [(LimitSubject, TokenLimits)], _ t: Date) {
        for (subject, limits) in checks {
            let budgets = limits.budgetUSDPerDay != nil || limits.budgetUSDPerMonth != nil
            let perMinute = limits.requestsPerMinute != nil || limits.tokensPerMinute != nil
            guard budgets || perMinute else { continue }
            enum Read { case none, now, background }
            let read = counts.withLock { all -> Read in
                guard let c = all[subject], c.readAt != nil else { return .now }
                guard let every = rereadEvery, !c.rereading, t.timeIntervalSince(c.readAt!) >= every else { return .none }
                all[subject]!.rereading = true
                return .background
            }
            switch read {
            case .none:
                continue
            case .now:
                // The first time this process sees the subject: its counts start from the ledger before it admits.
                apply(sums(subject, perMinute: perMinute, budgets: budgets, t), to: subject, at: t)
            case .background:
                // Later re-reads (several instances): the request goes on with the counts as they are; the sums land
                // when the store answers, so instances see each other's use within `rereadEvery` plus the ledger's
                // flush interval plus the time of the read.
                rereads.async { [self] in
                    apply(sums(subject, perMinute: perMinute, budgets: budgets, t), to: subject, at: t)
                }
            }
        }
    }

    private struct Sums {
        var minute: UsageSummary?
        var day: UsageSummary?
        var month: UsageSummary?
    }

    /// This minute's requests and tokens, today's and this month's spend, from the ledger.
    private func sums(_ subject: LimitSubject, perMinute: Bool, budgets: Bool, _ t: Date) -> Sums {
        Sums(minute: perMinute ? ledgerSums(subject, LimitWindows.minuteStart(LimitWindows.minute(t))) : nil,
             day: budgets ? ledgerSums(subject, LimitWindows.dayStart(LimitWindows.day(t))) : nil,
             month: budgets ? ledgerSums(subject, LimitWindows.monthStart(LimitWindows.month(t))) : nil)
    }

    /// Keeps the larger of the ledger's sums and this process's own counts (which also hold what it has not written yet).
    private func apply(_ read: Sums, to subject: LimitSubject, at t: Date) {
        counts.withLock { all in
            var c = all[subject] ?? Counts()
            c.roll(to: t)
            if let minute = read.minute, LimitWindows.minute(t) == c.minute {
                c.requests = max(c.requests, Int64(minute.requests))
                c.tokens = max(c.tokens, Int64(minute.inputTokens + minute.outputTokens))
            }
            if LimitWindows.day(t) == c.day { c.daySpent = max(c.daySpent, read.day?.costMicrodollars ?? 0) }
            if LimitWindows.month(t) == c.month { c.monthSpent = max(c.monthSpent, read.month?.costMicrodollars ?? 0) }
            c.readAt = t
            c.rereading = false
            all[subject] = c
        }
    }
}

/// A request admitted by `LimitCounters.admit`, to hand back with `release` once answered.
struct LimitTicket: Sendable {
    let subjects: [LimitSubject]
    let stream: Bool
}

/// One limit's state, as `GET /v1/limits` shows it.
struct LimitStatus: Sendable {
    let subject: LimitSubject
    let limit: LimitName
    /// The limit (microdollars for budgets).
    let max: Int64
    let used: Int64
    /// When the window ends; nil for the concurrency limits.
    let resetsAt: Date?

    func json() -> JSONValue {
        var o: JSONObject = ["scope": .string(subject.kind.rawValue), "name": .string(subject.name), "limit": .string(limit.rawValue)]
        if limit.isBudget {
            o.append("value", .double(Double(max) / 1e6))
            o.append("used", .double(Double(used) / 1e6))
            o.append("remaining", .double(Double(Swift.max(0, max - used)) / 1e6))
        } else {
            o.append("value", .int(Int(max)))
            o.append("used", .int(Int(used)))
            o.append("remaining", .int(Int(Swift.max(0, max - used))))
        }
        o.append("resets_at", resetsAt.map { .string(LimitWindows.iso($0)) } ?? .null)
        return .object(o)
    }
}
