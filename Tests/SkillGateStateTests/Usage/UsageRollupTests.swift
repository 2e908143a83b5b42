import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// The running totals count as the ledger's summaries do (no database needed).
@Suite struct UsageRollupRowsTests {
    @Test func totalsSkipModelCallsCountRefusedRequestsAsNoneAndBucketByUTCMinuteAndDay() {
        let t0: Int64 = 1_780_000_000_000  // 2026-05-28T20:26:40Z
        func record(_ kind: UsageRecord.Kind, at ms: Int64, token: String?, scenario: String?, input: Int, cost: Int64?, outcome: String = "ok") -> UsageRecord {
            var r = UsageRecord(occurredAt: Date(millisecondsSince1970: ms), tokenId: token, scenario: scenario, model: "p/m",
                                usage: Usage(inputTokens: input, outputTokens: 2), costMicrodollars: cost, outcome: outcome)
            r.kind = kind
            return r
        }
        let rows = UsageRollup.rows(for: [
            record(.request, at: t0, token: "tok_a", scenario: "chat", input: 10, cost: 100),
            record(.call, at: t0 + 1, token: "tok_a", scenario: "chat", input: 99, cost: 999),
            record(.run, at: t0 + 59_000, token: "tok_a", scenario: nil, input: 5, cost: nil),
            record(.request, at: t0 + 61_000, token: nil, scenario: "chat", input: 1, cost: 1, outcome: "rate_limited"),
        ])
        let minute0 = t0 - t0 % 60_000, day0 = t0 - t0 % 86_400_000
        func row(_ scope: UsageRollup.Scope, _ subject: String, _ period: UsageRollup.Period, _ bucket: Int64) -> UsageRollup.Totals? {
            rows.first { $0.key == UsageRollup.Key(scope: scope, subject: subject, period: period, bucket: bucket) }?.totals
        }
        #expect(row(.token, "tok_a", .minute, minute0).map { [$0.requests, $0.inputTokens, $0.outputTokens, $0.costMicrodollars] } == [1, 10, 2, 100])
        #expect(row(.token, "tok_a", .minute, minute0 + 60_000).map { [$0.requests, $0.inputTokens, $0.costMicrodollars] } == [1, 5, 0])
        #expect(row(.token, "tok_a", .day, day0).map { [$0.requests, $0.inputTokens, $0.costMicrodollars] } == [2, 15, 100])
        #expect(row(.scenario, "chat", .day, day0).map { [$0.requests, $0.inputTokens, $0.costMicrodollars] } == [1, 11, 101])
        #expect(rows.count == 6, "\(rows)")
        #expect(rows.map(\.key) == rows.map(\.key).sorted(), "in key order, so two writers lock shared rows in the same order")
    }

    /// A run whose calls count themselves as they are written (decision 0148): while it goes on, the totals hold its
    /// calls' tokens and cost and no request; once its row is written, in a later batch, exactly its own sums, as a run
    /// whose calls were all written with it.
    @Test func callsThatCountThemselvesAreCountedOnceWithTheirRun() {
        let t0: Int64 = 1_780_000_000_000
        func record(_ kind: UsageRecord.Kind, input: Int, cost: Int64) -> UsageRecord {
            var r = UsageRecord(occurredAt: Date(millisecondsSince1970: t0), tokenId: "tok_a", scenario: "chat", model: "p/m",
                                usage: Usage(inputTokens: input, outputTokens: 1), costMicrodollars: cost)
            r.kind = kind
            r.countsInRunningTotals = kind == .call
            return r
        }
        var run = record(.run, input: 30, cost: 300)
        run.usage.outputTokens = 2
        run.countedByCallRows = UsageSummary(inputTokens: 30, outputTokens: 2, costMicrodollars: 300)
        func day(_ rows: [UsageRollup.Row]) -> [Int64]? {
            rows.first { $0.key.scope == .token && $0.key.period == .day }.map { [$0.totals.requests, $0.totals.inputTokens, $0.totals.outputTokens, $0.totals.costMicrodollars] }
        }
        let first = UsageRollup.rows(for: [record(.call, input: 10, cost: 100)])
        let rest = UsageRollup.rows(for: [run, record(.call, input: 20, cost: 200)])
        #expect(day(first) == [0, 10, 1, 100], "the first call, paid while the run went on")
        let sum = zip(day(first) ?? [], day(rest) ?? []).map { $0 + $1 }
        #expect(sum == [1, 30, 2, 300], "the run counted once: \(sum)")
        var unmarked = run
        unmarked.countedByCallRows = nil
        var oldCall = record(.call, input: 99, cost: 999)
        oldCall.countsInRunningTotals = false
        #expect(day(UsageRollup.rows(for: [unmarked, oldCall])) == [1, 30, 2, 300], "rows made elsewhere count as before: the run's row alone")
    }

    static let minuteNow: Int64 = 60_000 * 29_600_000
    static let periodCases: [(since: Int64, expected: UsageRollup.Period?)] = [
        (0, .day),
        (86_400_000 * 20_000, .day),
        (minuteNow, .minute),
        (minuteNow - 7_200_000, nil),  // a minute whose totals are no longer kept
        (minuteNow + 1, nil),
    ]

    @Test(arguments: periodCases)
    func readsUseTheTotalsOnlyWhenTheyAnswerExactly(since: Int64, expected: UsageRollup.Period?) {
        let now = Date(millisecondsSince1970: Self.minuteNow + 30_000)
        #expect(UsageRollup.period(since: Date(millisecondsSince1970: since), now: now) == expected)
    }
}

/// Records and the sums they must give, counted here record by record (the oracle both stores' totals are checked
/// against).
enum UsageRollupFixtures {
    /// Records over the last 70 minutes and the last 40 days, two tokens (one with none), two scenarios, every kind.
    static func records(now: Int64) -> [UsageRecord] {
        var out: [UsageRecord] = []
        for i in 0..<240 {
            let ago: Int64 = i % 3 == 0 ? Int64(i) * 17_000 : Int64(i) * 15_000_000
            var r = UsageRecord(occurredAt: Date(millisecondsSince1970: now - ago), tokenId: [nil, "tok_a", "tok_b"][i % 3],
                                scenario: ["chat", "support", nil][i % 5 % 3], model: "p/m",
                                usage: Usage(inputTokens: i, outputTokens: i % 7), costMicrodollars: i % 4 == 0 ? nil : Int64(i * 10),
                                outcome: i % 11 == 0 ? "rate_limited" : "ok")
            r.kind = [.request, .run, .call][i % 3 == 1 ? (i / 3) % 3 : 0]
            out.append(r)
        }
        return out
    }

    /// The limits' windows (this minute, ten minutes ago, today, 30 days ago, all time) and one unaligned instant.
    static func windows(now: Date) -> [Date] {
        let ms = now.millisecondsSince1970
        return [ms - ms % 60_000, ms - ms % 60_000 - 600_000, ms - ms % 86_400_000, ms - ms % 86_400_000 - 86_400_000 * 30, 0, ms - 1_234_567]
            .map(Date.init(millisecondsSince1970:))
    }

    /// What a summary since `since` must say: run and request records only, refused requests not counted as requests.
    static func sums(_ records: [UsageRecord], token: String? = nil, scenario: String? = nil, since: Date) -> UsageSummary {
        var s = UsageSummary()
        for r in records where r.kind != .call && r.occurredAt >= since && (token == nil || r.tokenId == token)
            && (scenario == nil || r.scenario == scenario) {
            if r.outcome != "rate_limited" { s.requests += 1 }
            s.inputTokens += r.usage.inputTokens
            s.outputTokens += r.usage.outputTokens
            s.costMicrodollars += r.costMicrodollars ?? 0
        }
        return s
    }
}

/// The SQLite store's running totals (schema step 8): the limits' sums read from them equal the records' sums, and a
/// state file with a ledger from before them gets them when it migrates, losing the per-token and per-scenario
/// indexes.
@Suite struct SQLiteUsageRollupTests {
    static func tokens(_ store: SQLiteStateStore) throws {
        for id in ["tok_a", "tok_b"] {
            try store.insertToken(ClientToken(id: id, name: id, createdAt: Date(millisecondsSince1970: 0)), hash: "hash-" + id)
        }
    }

    @Test func limitSumsFromTheTotalsEqualTheRecordsSums() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            try Self.tokens(store)
            let now = Date()
            let all = UsageRollupFixtures.records(now: now.millisecondsSince1970)
            for start in stride(from: 0, to: all.count, by: 50) { try store.recordUsage(Array(all[start..<min(all.count, start + 50)])) }
            for since in UsageRollupFixtures.windows(now: now) {
                for token in ["tok_a", "tok_b"] {
                    #expect(try store.usageSummary(tokenId: token, since: since) == UsageRollupFixtures.sums(all, token: token, since: since), "\(token) since \(since)")
                }
                for scenario in ["chat", "support"] {
                    #expect(try store.usageSummary(scenario: scenario, since: since) == UsageRollupFixtures.sums(all, scenario: scenario, since: since), "\(scenario) since \(since)")
                }
                #expect(try store.usageSummary(tokenId: nil, since: since) == UsageRollupFixtures.sums(all, since: since), "all since \(since)")
            }
        }
    }

    @Test func aBatchAddsOneRowPerSubjectPeriodAndBucketAndOldMinuteRowsGo() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            try Self.tokens(store)
            let now = Date().millisecondsSince1970
            let all = UsageRollupFixtures.records(now: now)
            try store.recordUsage(all)
            let rows = try store.withConnection { db in try db.prepare("SELECT count(*) FROM usage_rollup").firstRow { $0.int64(0) } ?? 0 }
            let kept = UsageRollup.rows(for: all).filter { $0.key.period == .day || $0.key.bucket >= now - UsageRollup.minuteRetention }
            #expect(rows == Int64(kept.count), "minute rows older than two hours are removed")
            #expect(kept.count < UsageRollup.rows(for: all).count, "the records reach back further than that")
        }
    }

    @Test func aLedgerFromBeforeTheTotalsGetsThemWhenItMigrates() throws {
        try withTemporaryDirectory { dir in
            let now = Date()
            let all = UsageRollupFixtures.records(now: now.millisecondsSince1970)
            do {
                // The schema as it was before step 8, and a ledger written then.
                let old = try SQLiteConnection(path: dir + "/state.sqlite")
                try old.migrate(Array(StateSchema.steps.prefix(7)))
                try old.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_a', 'a', 'h1', 0), ('tok_b', 'b', 'h2', 0)")
                for r in all {
                    try old.statement("""
                        INSERT INTO usage_records (occurred_at, token_id, scenario, input_tokens, output_tokens, cost_microdollars, outcome, kind)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """).run([.integer(r.occurredAt.millisecondsSince1970), .optionalText(r.tokenId), .optionalText(r.scenario),
                                  .int(r.usage.inputTokens), .int(r.usage.outputTokens), .int64(r.costMicrodollars), .text(r.outcome),
                                  .text(r.kind.rawValue)])
                }
            }
            let store = try SQLiteStateStore(stateDirectory: dir)
            #expect(try store.schemaVersion() == StateSchema.steps.count)
            for since in UsageRollupFixtures.windows(now: now) {
                #expect(try store.usageSummary(tokenId: "tok_a", since: since) == UsageRollupFixtures.sums(all, token: "tok_a", since: since), "since \(since)")
                #expect(try store.usageSummary(scenario: "chat", since: since) == UsageRollupFixtures.sums(all, scenario: "chat", since: since), "since \(since)")
            }
            let indexes = try store.withConnection { db in
                try db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'usage_records' AND sql IS NOT NULL").rows { $0.text(0) }
            }
            #expect(indexes == ["usage_records_time"], "the reports' time index stays; the per-token and per-scenario ones went")
        }
    }
}
