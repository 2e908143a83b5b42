import FoundationEssentials
import Synchronization

/// Running totals of the usage ledger per token and per scenario, by UTC minute and by UTC day (table
/// `usage_rollup`: PostgreSQL schema step 4, SQLite step 8), so the limits' reads — this minute's requests and
/// tokens, today's and this month's spend — read one to 31 small rows instead of summing every request of the month
/// (decision 0031: at a few thousand requests per second those sums grew with the table and took the database's CPU
/// from the requests), and the ledger's rows need no per-token or per-scenario index.
///
/// The ledger writer adds each batch's totals in the same transaction as the batch's rows, so the totals and the
/// rows never disagree. Minute rows are kept `minuteRetention`; day rows are kept.
enum UsageRollup {
    /// What a total is of.
    enum Scope: String, Sendable {
        case token
        case scenario
    }

    enum Period: String, Sendable {
        case minute
        case day

        var milliseconds: Int64 { self == .minute ? 60_000 : 86_400_000 }

        /// The start of the period holding `ms` (milliseconds since 1970).
        func bucket(of ms: Int64) -> Int64 { ms - ms % milliseconds }
    }

    /// Sums counted as the ledger's summaries count them.
    struct Totals: Sendable, Hashable {
        var requests: Int64 = 0
        var inputTokens: Int64 = 0
        var outputTokens: Int64 = 0
        var costMicrodollars: Int64 = 0

        /// Adds what `r` counts: a request row all of itself; a `call` row that counts in the running totals its tokens
        /// and cost (no request: its run's row counts that); a run's row its request and what its calls that count
        /// themselves did not (`countedByCallRows`).
        mutating func add(_ r: UsageRecord) {
            if r.kind == .call {
                guard r.countsInRunningTotals else { return }
            } else if r.countsAsAdmitted {
                requests += 1
            }
            let counted = r.kind == .call ? UsageSummary() : r.countedByCallRows ?? UsageSummary()
            inputTokens += Int64(r.usage.inputTokens) - Int64(counted.inputTokens)
            outputTokens += Int64(r.usage.outputTokens) - Int64(counted.outputTokens)
            costMicrodollars += (r.costMicrodollars ?? 0) - counted.costMicrodollars
        }

        mutating func add(_ t: Totals) {
            requests += t.requests
            inputTokens += t.inputTokens
            outputTokens += t.outputTokens
            costMicrodollars += t.costMicrodollars
        }
    }

    /// Which total a row is.
    struct Key: Sendable, Hashable, Comparable {
        var scope: Scope
        var subject: String
        var period: Period
        var bucket: Int64

        /// Two writers upsert the rows they share in this order, so they wait for each other instead of deadlocking.
        static func < (a: Key, b: Key) -> Bool {
            (a.scope.rawValue, a.subject, a.period.rawValue, a.bucket) < (b.scope.rawValue, b.subject, b.period.rawValue, b.bucket)
        }
    }

    /// One row's increment.
    struct Row: Sendable, Hashable {
        var key: Key
        var totals: Totals
    }

    /// How long minute totals are kept (the limits read only the current minute).
    static let minuteRetention: Int64 = 2 * 3_600_000

    /// The totals `records` add, one row per scope, subject, period and bucket, in key order. Counted as the ledger's
    /// summaries count once a run's row is in: a run's calls are in its row's sums, and a request refused by a limit
    /// counts no request but its tokens and cost (none) do. Calls the gateway marks (`countsInRunningTotals`) count
    /// their tokens and cost as they are written, before their run's row, which then adds only the rest (decision
    /// 0148): the totals run ahead of the summaries while a run goes on, and agree with them once it has ended.
    static func rows(for records: [UsageRecord]) -> [Row] {
        // One lookup per record (a batch's records share a few tokens, scenarios and minutes), then the groups are
        // spread over the scopes and periods.
        struct Group: Hashable { var token: String?; var scenario: String?; var minute: Int64 }
        var groups: [Group: Totals] = [:]
        for r in records where r.kind != .call || r.countsInRunningTotals {
            let minute = Period.minute.bucket(of: r.occurredAt.millisecondsSince1970)
            groups[Group(token: r.tokenId, scenario: r.scenario, minute: minute), default: Totals()].add(r)
        }
        var rows: [Key: Totals] = [:]
        for (group, totals) in groups {
            for (scope, subject) in [(Scope.token, group.token), (.scenario, group.scenario)] {
                guard let subject else { continue }
                for period in [Period.minute, .day] {
                    rows[Key(scope: scope, subject: subject, period: period, bucket: period.bucket(of: group.minute)), default: Totals()].add(totals)
                }
            }
        }
        return rows.sorted { $0.key < $1.key }.map { Row(key: $0.key, totals: $0.value) }
    }

    /// The totals that answer "usage since `since`" exactly: minute rows when `since` starts a minute that is still
    /// kept (the limits' current minute), day rows when it starts a UTC day (today, this month); nil when neither
    /// (the caller sums the ledger's rows).
    static func period(since: Date, now: Date) -> Period? {
        let ms = since.millisecondsSince1970
        if ms % Period.day.milliseconds == 0 { return .day }
        if ms % Period.minute.milliseconds == 0, now.millisecondsSince1970 - ms < minuteRetention / 2 { return .minute }
        return nil
    }

    /// When a store last removed minute totals older than `minuteRetention`: the ledger writer does it in a batch's
    /// transaction at most once a minute.
    final class PruneSchedule: Sendable {
        private let last = Mutex<Int64>(0)

        init() {}

        /// True (and remembered) when a minute has passed since the last prune; `now` in milliseconds since 1970.
        func isDue(now: Int64) -> Bool {
            last.locked { last in
                guard now - last >= 60_000 else { return false }
                last = now
                return true
            }
        }
    }
}
