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
/// spend), read when a subject is first seen (and again for windows its limits gained since), then every
/// `rereadEvery` in the background so other processes sharing the ledger are seen; a subject idle for
/// `2 × rereadEvery` is read again before its next request is judged (decision 0105). Reads run on a queue of their
/// own, never on an event loop.
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
        /// Which of the ledger's windows have been read (a limit added later needs its window read first).
        var readWindows: LedgerWindows = []
        /// A re-read of this subject's sums is under way (off the request path); others wait for its result.
        var rereading = false

        /// Whether a request must wait for these counts to be read from the ledger before it is judged on them: the
        /// windows `limits` count in were never read, or (`staleAfter`, several processes) they were read so long ago
        /// that what the others used since is unknown.
        func needsRead(for limits: TokenLimits, at t: Date, staleAfter: TimeInterval?) -> Bool {
            guard let readAt, readWindows.isSuperset(of: limits.ledgerWindows) else { return true }
            guard let staleAfter else { return false }
            return t.timeIntervalSince(readAt) >= staleAfter
        }

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

        /// Rolls to `w`, then the limit of `limits` this request would be over that frees last (`LimitRejection.binding`),
        /// if any: a request over its minute's requests and its day's budget is told to come back tomorrow, not in
        /// seconds to be refused again (decision 0146).
        mutating func rolledRejection(_ limits: TokenLimits, stream: Bool, subject: LimitSubject, at t: Date,
                                      windows w: LimitWindows.Current) -> LimitRejection? {
            roll(to: w)
            var over: LimitRejection?
            for limit in LimitName.allCases {
                guard let max = limits.value(limit) else { continue }
                if limit == .concurrentStreams && !stream { continue }
                // Requests and slots: one more must fit. Tokens and cost: over once used up (the overshoot rule).
                if used(limit) >= max {
                    over = LimitRejection.binding(over, LimitRejection(subject: subject, limit: limit, max: max, used: used(limit), at: t))
                }
            }
            return over
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
            // Held within 64 bits: a limit's window must not be able to stop the process (decision 0096).
            self.tokens = self.tokens.clampedAdding(Int64(tokens))
            daySpent = daySpent.clampedAdding(costMicrodollars)
            monthSpent = monthSpent.clampedAdding(costMicrodollars)
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

    /// Every subject's counts, in slots that never move: a request looks its subjects up once when it is admitted,
    /// and its ticket releases them by slot (no hashing of a token id on the way out).
    private struct Table: Sendable {
        var counts: [Counts] = []
        var slots: [LimitSubject: Int] = [:]
        /// The requests waiting for a subject's first read from the ledger, by slot; a slot is here while its read
        /// is under way, so one read serves every request that came meanwhile.
        var firstReads: [Int: [CheckedContinuation<Void, Never>]] = [:]

        /// The slot of `subject`, given one (zero counts) the first time it is seen.
        mutating func slot(of subject: LimitSubject) -> Int {
            if let slot = slots[subject] { return slot }
            counts.append(Counts())
            slots[subject] = counts.count - 1
            return counts.count - 1
        }
    }

    private let table = Mutex(Table())
    private let now: @Sendable () -> Date
    private let ledgerSums: LedgerSums
    private let rereadEvery: TimeInterval?
    /// After how long without a read a subject's next request waits for one (twice `rereadEvery`).
    private let staleAfter: TimeInterval?
    /// Where the ledger is read: off the request path and off the event loops, one read at a time. A re-read never
    /// holds a request (before, every request arriving while a re-read was due ran the same three sums on the loop
    /// thread); a first read holds only the requests of its own subject, which await it (decision 0086: before, it ran
    /// on the event loop, and a busy database held every connection of that loop).
    private let ledgerReads = BlockingWorkQueue(label: "skillgate.limit-ledger-reads")

    /// - Parameter rereadEvery: how often a subject's sums are read again from the ledger (processes sharing a ledger,
    ///   instances on one PostgreSQL or gateways on one state directory, see each other's requests, tokens and spend
    ///   this way); nil reads them once per process (and again only for windows a subject's limits gain).
    init(now: @escaping @Sendable () -> Date = { Date() }, rereadEvery: Duration? = nil, ledgerSums: @escaping LedgerSums = { _, _ in nil }) {
        self.now = now
        self.ledgerSums = ledgerSums
        self.rereadEvery = rereadEvery.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        staleAfter = self.rereadEvery.map { 2 * $0 }
    }

    /// A subject whose counts have not been read from the ledger yet.
    struct UnreadSubject: Sendable {
        fileprivate let slot: Int
        let subject: LimitSubject
        let limits: TokenLimits
    }

    /// What `admitWithoutReading` decided when it did not refuse.
    enum Admission: Sendable {
        case admitted(LimitTicket)
        /// The first time this process sees `subject`: its counts start from the ledger, so `readFirst` it (a store
        /// read, awaited off the event loop), then admit again. Nothing was counted.
        case unread(UnreadSubject)
    }

    /// Admits a request against `checks` (subjects with limits) or throws the 429 naming the first limit it is
    /// over. Counts it as under way (and as a stream when `stream`) until `release`.
    ///
    /// The first time a subject with per-minute limits or budgets is seen, its counts are read from the ledger before
    /// it admits: the request awaits that read, which runs on a queue of its own (never on the caller's thread).
    func admit(_ checks: [(LimitSubject, TokenLimits)], stream: Bool) async throws(LimitRejection) -> LimitTicket {
        while true {
            switch try admitWithoutReading(checks, stream: stream) {
            case .admitted(let ticket): return ticket
            case .unread(let unread): await readFirst(unread)
            }
        }
    }

    /// `admit` for the request path, without awaiting: one lock and one lookup per subject, never a store read.
    /// With `rereadEvery`, a re-read that is due is started off the request path and the request goes on with the
    /// counts as they are. A subject never read yet for its limits' windows, or not read for `staleAfter`, gives
    /// `.unread` (nothing counted): `readFirst` it, then admit again.
    func admitWithoutReading(_ checks: [(LimitSubject, TokenLimits)], stream: Bool) throws(LimitRejection) -> Admission {
        guard !checks.isEmpty else { return .admitted(LimitTicket(slots: [], stream: stream)) }
        let t = now()
        let windows = LimitWindows.Current(t)
        var dueRereads: [(slot: Int, LimitSubject, TokenLimits)] = []
        let decision = table.locked { table -> Result<Admission, LimitRejection> in
            var slots: [Int] = []
            slots.reserveCapacity(checks.count)
            for (subject, limits) in checks {
                let slot = table.slot(of: subject)
                slots.append(slot)
                guard limits.countsFromLedger else { continue }
                guard !table.counts[slot].needsRead(for: limits, at: t, staleAfter: staleAfter), let readAt = table.counts[slot].readAt else {
                    return .success(.unread(UnreadSubject(slot: slot, subject: subject, limits: limits)))
                }
                // A read "in the future" means the wall clock was set back: re-read now rather than when it catches up.
                if let every = rereadEvery, !table.counts[slot].rereading, case let since = t.timeIntervalSince(readAt), since >= every || since < 0 {
                    table.counts[slot].rereading = true
                    dueRereads.append((slot, subject, limits))
                }
            }
            var over: LimitRejection?
            for (k, (subject, limits)) in checks.enumerated() {
                if let rejection = table.counts[slots[k]].rolledRejection(limits, stream: stream, subject: subject, at: t, windows: windows) {
                    over = LimitRejection.binding(over, rejection)
                }
            }
            if let over { return .failure(over) }
            for slot in slots { table.counts[slot].admitOne(stream: stream) }
            return .success(.admitted(LimitTicket(slots: slots, stream: stream)))
        }
        for (slot, subject, limits) in dueRereads {
            // Several instances: the sums land when the store answers, so instances see each other's use within
            // `rereadEvery` plus the ledger's flush interval plus the time of the read.
            ledgerReads.start { [self] in resume(apply(sums(subject, limits, t), toSlot: slot, at: t)) }
        }
        return try decision.get()
    }

    /// Reads `unread`'s counts from the ledger on the ledger-read queue and returns once they are in. Requests that
    /// come for the same subject meanwhile await the same read.
    func readFirst(_ unread: UnreadSubject) async {
        await read(unread, ifOlderThan: staleAfter)
    }

    /// For an agent run between its model calls (decision 0150): each subject of `checks` whose counts were read from the
    /// ledger `rereadEvery` ago or more (or never) is read again, and awaited. So a run sees what runs and requests in
    /// other processes sharing the ledger have spent within about a second, as an admission does, though no new request
    /// of its token or scenario comes to start a read. A store read of tens of microseconds to a millisecond, off the
    /// event loops, between model calls of a second or more.
    func refreshForRun(_ checks: [(LimitSubject, TokenLimits)]) async {
        guard let every = rereadEvery else { return }
        for (subject, limits) in checks where limits.countsFromLedger {
            let slot = table.locked { $0.slot(of: subject) }
            await read(UnreadSubject(slot: slot, subject: subject, limits: limits), ifOlderThan: every)
        }
    }

    /// `readFirst`, reading when the counts were read `olderThan` ago or more (nil: only when never read for the
    /// windows of `unread`'s limits).
    private func read(_ unread: UnreadSubject, ifOlderThan olderThan: TimeInterval?) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let t = now()
            let starts = table.locked { table -> Bool? in
                if !table.counts[unread.slot].needsRead(for: unread.limits, at: t, staleAfter: olderThan) { return nil }
                if table.firstReads[unread.slot] != nil {
                    table.firstReads[unread.slot, default: []].append(done)
                    return false
                }
                table.firstReads[unread.slot] = [done]
                return true
            }
            switch starts {
            case nil: done.resume()  // read meanwhile
            case false?: break       // another request's read is under way, and resumes this one too
            case true?:
                ledgerReads.start { [self] in resume(apply(sums(unread.subject, unread.limits, t), toSlot: unread.slot, at: t)) }
            }
        }
    }

    /// The limit of `checks` a request would be over now (the one that frees last), counting nothing. A subject whose
    /// counts this process has not read yet is read from the ledger first (awaited off the caller's thread, as for an
    /// admission): after a restart, or on another instance, a token that only ever counts tokens must be judged on what
    /// it spent too. For requests that take no slot but should not reach a provider for a client over its limits (the
    /// token-count endpoints, decision 0146).
    func currentRejection(_ checks: [(LimitSubject, TokenLimits)], stream: Bool) async -> LimitRejection? {
        for (subject, limits) in checks where limits.countsFromLedger {
            let (slot, unread) = unreadSlot(of: subject, limits)
            if unread { await readFirst(UnreadSubject(slot: slot, subject: subject, limits: limits)) }
        }
        return currentRejectionAsCounted(checks, stream: stream)
    }

    /// `currentRejection` on the counts as they are (a subject never seen here counts as within its limits).
    private func currentRejectionAsCounted(_ checks: [(LimitSubject, TokenLimits)], stream: Bool) -> LimitRejection? {
        guard !checks.isEmpty else { return nil }
        let t = now()
        let windows = LimitWindows.Current(t)
        return table.locked { table -> LimitRejection? in
            var over: LimitRejection?
            for (subject, limits) in checks {
                guard let slot = table.slots[subject] else { continue }
                if let rejection = table.counts[slot].rolledRejection(limits, stream: stream, subject: subject, at: t, windows: windows) {
                    over = LimitRejection.binding(over, rejection)
                }
            }
            return over
        }
    }

    /// Ends a request admitted by `admit`: no longer under way, its tokens and cost counted in the current windows.
    func release(_ ticket: LimitTicket, tokens: Int, costMicrodollars: Int64) {
        guard !ticket.slots.isEmpty else { return }
        let windows = LimitWindows.Current(now())
        table.locked { table in
            for slot in ticket.slots {
                table.counts[slot].release(stream: ticket.stream, tokens: tokens, costMicrodollars: costMicrodollars, windows: windows)
            }
        }
    }

    /// The first budget of `checks` that what its subject spent (agent runs under way included), plus
    /// `pendingMicrodollars` not yet counted anywhere, has used up; nil when each has some left or none has a budget.
    /// Reads the counts as they are (a subject never admitted here has none); counts nothing.
    func budgetUsedUp(_ checks: [(LimitSubject, TokenLimits)], pendingMicrodollars: Int64) -> LimitRejection? {
        addSpent(0, tokens: 0, on: checks, thenCheckPending: pendingMicrodollars)
    }

    /// Adds `microdollars` and `tokens` an agent run under way has spent (`RunSpending`) to today's and this month's spend
    /// and this minute's tokens of each subject of `checks`, as a release would, then returns the first budget used up,
    /// as `budgetUsedUp`, in one step under the lock. The run's request is released with the rest of its cost and tokens
    /// (decisions 0148, 0150).
    func addSpent(_ microdollars: Int64, tokens: Int64, on checks: [(LimitSubject, TokenLimits)],
                  thenCheckPending pendingMicrodollars: Int64 = 0) -> LimitRejection? {
        let t = now()
        let windows = LimitWindows.Current(t)
        return table.locked { table -> LimitRejection? in
            var over: LimitRejection?
            for (subject, limits) in checks {
                guard let slot = table.slots[subject] else { continue }
                table.counts[slot].roll(to: windows)
                if microdollars != 0 {
                    table.counts[slot].daySpent = table.counts[slot].daySpent.clampedAdding(microdollars)
                    table.counts[slot].monthSpent = table.counts[slot].monthSpent.clampedAdding(microdollars)
                }
                if tokens != 0 { table.counts[slot].tokens = table.counts[slot].tokens.clampedAdding(tokens) }
                guard over == nil else { continue }
                for limit in [LimitName.budgetPerDay, .budgetPerMonth] {
                    guard let max = limits.value(limit) else { continue }
                    let used = table.counts[slot].used(limit).clampedAdding(pendingMicrodollars)
                    if used >= max { over = LimitRejection(subject: subject, limit: limit, max: max, used: used, at: t); break }
                }
            }
            return over
        }
    }

    /// Each limit of `subject`: its value, what is used and when it resets (for `GET /v1/limits`).
    func status(_ subject: LimitSubject, _ limits: TokenLimits) async -> [LimitStatus] {
        let (slot, unread) = unreadSlot(of: subject, limits)
        if unread { await readFirst(UnreadSubject(slot: slot, subject: subject, limits: limits)) }
        return status(ofSlot: slot, subject, limits)
    }

    /// `status`, reading a subject never read yet from the ledger on the calling thread: only for callers already off
    /// the event loops (the admin API's queue).
    func statusReadingHere(_ subject: LimitSubject, _ limits: TokenLimits) -> [LimitStatus] {
        let (slot, unread) = unreadSlot(of: subject, limits)
        if unread {
            let t = now()
            resume(apply(sums(subject, limits, t), toSlot: slot, at: t))
        }
        return status(ofSlot: slot, subject, limits)
    }

    /// `subject`'s slot, and whether its counts must first be read from the ledger.
    private func unreadSlot(of subject: LimitSubject, _ limits: TokenLimits) -> (Int, Bool) {
        table.locked { table in
            let slot = table.slot(of: subject)
            return (slot, limits.countsFromLedger && table.counts[slot].needsRead(for: limits, at: now(), staleAfter: staleAfter))
        }
    }

    private func status(ofSlot slot: Int, _ subject: LimitSubject, _ limits: TokenLimits) -> [LimitStatus] {
        let t = now()
        let c = table.locked { table -> Counts in
            table.counts[slot].roll(to: t)
            return table.counts[slot]
        }
        return LimitName.allCases.compactMap { limit in
            limits.value(limit).map { LimitStatus(subject: subject, limit: limit, max: $0, used: c.used(limit), resetsAt: LimitWindows.reset(of: limit, at: t)) }
        }
    }

    private struct Sums {
        var minute: UsageSummary?
        var day: UsageSummary?
        var month: UsageSummary?
        /// The windows read (a sum that could not be read counts as read: from zero, as before).
        var windows: LedgerWindows
    }

    /// This minute's requests and tokens (per-minute limits), today's and this month's spend (budgets), from the
    /// ledger: a store read of tens of microseconds to a millisecond, never under the lock.
    private func sums(_ subject: LimitSubject, _ limits: TokenLimits, _ t: Date) -> Sums {
        let windows = limits.ledgerWindows
        let budgets = windows.contains(.spend)
        return Sums(minute: windows.contains(.minute) ? ledgerSums(subject, LimitWindows.minuteStart(LimitWindows.minute(t))) : nil,
                    day: budgets ? ledgerSums(subject, LimitWindows.dayStart(LimitWindows.day(t))) : nil,
                    month: budgets ? ledgerSums(subject, LimitWindows.monthStart(LimitWindows.month(t))) : nil,
                    windows: windows)
    }

    /// Keeps the larger of the ledger's sums and this process's own counts (which also hold what it has not written yet).
    /// Returns the requests that awaited this read, to `resume` once the lock is let go.
    private func apply(_ read: Sums, toSlot slot: Int, at t: Date) -> [CheckedContinuation<Void, Never>] {
        table.locked { table in
            var c = table.counts[slot]
            c.roll(to: t)
            if let minute = read.minute, LimitWindows.minute(t) == c.minute {
                c.requests = max(c.requests, Int64(minute.requests))
                c.tokens = max(c.tokens, Int64(minute.inputTokens.clampedAdding(minute.outputTokens)))
            }
            if LimitWindows.day(t) == c.day { c.daySpent = max(c.daySpent, read.day?.costMicrodollars ?? 0) }
            if LimitWindows.month(t) == c.month { c.monthSpent = max(c.monthSpent, read.month?.costMicrodollars ?? 0) }
            c.readAt = t
            c.readWindows.formUnion(read.windows)
            c.rereading = false
            table.counts[slot] = c
            return table.firstReads.removeValue(forKey: slot) ?? []
        }
    }

    private func resume(_ waiting: [CheckedContinuation<Void, Never>]) {
        for request in waiting { request.resume() }
    }
}

/// A request admitted by `LimitCounters.admit`, to hand back with `release` once answered: the slots of its
/// subjects' counts.
struct LimitTicket: Sendable {
    let slots: [Int]
    let stream: Bool
}

/// The ledger's windows a subject's counts are read from: this minute's requests and tokens, today's and this month's
/// spend.
struct LedgerWindows: OptionSet, Sendable {
    let rawValue: UInt8
    static let minute = LedgerWindows(rawValue: 1)
    static let spend = LedgerWindows(rawValue: 2)
}

extension TokenLimits {
    /// Limits whose counts start from the ledger (per-minute requests and tokens, budgets); the concurrency limits
    /// count only what this process has under way.
    var countsFromLedger: Bool { !ledgerWindows.isEmpty }

    /// The windows these limits count in.
    var ledgerWindows: LedgerWindows {
        var windows: LedgerWindows = []
        if requestsPerMinute != nil || tokensPerMinute != nil { windows.insert(.minute) }
        if budgetUSDPerDay != nil || budgetUSDPerMonth != nil { windows.insert(.spend) }
        return windows
    }
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
