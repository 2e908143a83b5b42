import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// The running totals count as the ledger's summaries do (no database needed).
@Suite struct PostgresUsageRollupRowsTests {
    @Test func totalsSkipModelCallsCountRefusedRequestsAsNoneAndBucketByUTCMinuteAndDay() {
        let t0: Int64 = 1_780_000_000_000  // 2026-05-28T20:26:40Z
        func record(_ kind: UsageRecord.Kind, at ms: Int64, token: String?, scenario: String?, input: Int, cost: Int64?, outcome: String = "ok") -> UsageRecord {
            var r = UsageRecord(occurredAt: Date(millisecondsSince1970: ms), tokenId: token, scenario: scenario, model: "p/m",
                                usage: Usage(inputTokens: input, outputTokens: 2), costMicrodollars: cost, outcome: outcome)
            r.kind = kind
            return r
        }
        let rows = PostgresUsageRollup.rows(for: [
            record(.request, at: t0, token: "tok_a", scenario: "chat", input: 10, cost: 100),
            record(.call, at: t0 + 1, token: "tok_a", scenario: "chat", input: 99, cost: 999),
            record(.run, at: t0 + 59_000, token: "tok_a", scenario: nil, input: 5, cost: nil),
            record(.request, at: t0 + 61_000, token: nil, scenario: "chat", input: 1, cost: 1, outcome: "rate_limited"),
        ])
        let minute0 = t0 - t0 % 60_000, day0 = t0 - t0 % 86_400_000
        func row(_ scope: PostgresUsageRollup.Scope, _ subject: String, _ period: PostgresUsageRollup.Period, _ bucket: Int64) -> PostgresUsageRollup.Totals? {
            rows.first { $0.key == PostgresUsageRollup.Key(scope: scope, subject: subject, period: period, bucket: bucket) }?.totals
        }
        #expect(row(.token, "tok_a", .minute, minute0).map { [$0.requests, $0.inputTokens, $0.outputTokens, $0.costMicrodollars] } == [1, 10, 2, 100])
        #expect(row(.token, "tok_a", .minute, minute0 + 60_000).map { [$0.requests, $0.inputTokens, $0.costMicrodollars] } == [1, 5, 0])
        #expect(row(.token, "tok_a", .day, day0).map { [$0.requests, $0.inputTokens, $0.costMicrodollars] } == [2, 15, 100])
        #expect(row(.scenario, "chat", .day, day0).map { [$0.requests, $0.inputTokens, $0.costMicrodollars] } == [1, 11, 101])
        #expect(rows.count == 6, "\(rows)")
        #expect(rows.map(\.key) == rows.map(\.key).sorted(), "in key order, so two writers lock shared rows in the same order")
    }

    static let minuteNow: Int64 = 60_000 * 29_600_000
    static let periodCases: [(since: Int64, expected: PostgresUsageRollup.Period?)] = [
        (0, .day),
        (86_400_000 * 20_000, .day),
        (minuteNow, .minute),
        (minuteNow - 7_200_000, nil),  // a minute whose totals are no longer kept
        (minuteNow + 1, nil),
    ]

    @Test(arguments: periodCases)
    func readsUseTheTotalsOnlyWhenTheyAnswerExactly(since: Int64, expected: PostgresUsageRollup.Period?) {
        let now = Date(millisecondsSince1970: Self.minuteNow + 30_000)
        #expect(PostgresUsageRollup.period(since: Date(millisecondsSince1970: since), now: now) == expected)
    }
}

/// On a real PostgreSQL: the limits' sums read from the running totals equal the sums over the ledger's rows (the
/// SQLite store, which always sums rows, holds the same records), written in several batches by two instances; and
/// a database with a ledger from before the totals existed gets them when it migrates.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PostgresUsageRollupTests {
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

    /// The same records in a SQLite store (its ledger rows name tokens it knows, as the gateway's always do).
    static func sqliteLedger(_ dir: String, _ records: [UsageRecord]) throws -> SQLiteStateStore {
        let sqlite = try SQLiteStateStore(stateDirectory: dir)
        for id in ["tok_a", "tok_b"] {
            try sqlite.insertToken(ClientToken(id: id, name: id, createdAt: Date(millisecondsSince1970: 0)), hash: "hash-" + id)
        }
        try sqlite.recordUsage(records)
        return sqlite
    }

    static func windows(now: Date) -> [Date] {
        let ms = now.millisecondsSince1970
        return [ms - ms % 60_000, ms - ms % 60_000 - 600_000, ms - ms % 86_400_000, ms - ms % 86_400_000 - 86_400_000 * 30, 0, ms - 1_234_567]
            .map(Date.init(millisecondsSince1970:))
    }

    @Test func limitSumsFromTheTotalsEqualSumsOverTheRows() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            try withTemporaryDirectory { dir in
                let now = Date()
                let all = Self.records(now: now.millisecondsSince1970)
                let instances = [try PostgresStateStore(url: db.url), try PostgresStateStore(url: db.url)]
                for (i, batch) in stride(from: 0, to: all.count, by: 50).map({ Array(all[$0..<min(all.count, $0 + 50)]) }).enumerated() {
                    try instances[i % 2].recordUsage(batch)
                }
                let sqlite = try Self.sqliteLedger(dir, all)
                for since in Self.windows(now: now) {
                    for token in ["tok_a", "tok_b"] {
                        #expect(try instances[0].usageSummary(tokenId: token, since: since) == sqlite.usageSummary(tokenId: token, since: since), "\(token) since \(since)")
                    }
                    for scenario in ["chat", "support"] {
                        #expect(try instances[1].usageSummary(scenario: scenario, since: since) == sqlite.usageSummary(scenario: scenario, since: since), "\(scenario) since \(since)")
                    }
                }
            }
        }
    }

    @Test func aLedgerFromBeforeTheTotalsGetsThemWhenItMigrates() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            try withTemporaryDirectory { dir in
                let now = Date()
                let all = Self.records(now: now.millisecondsSince1970)
                // The schema as it was before step 4, and a ledger written then (with the tokens the old foreign key wants).
                let old = try PostgresConnection(url: db.url)
                try old.execute("CREATE TABLE skillgate_schema (version INTEGER NOT NULL)")
                for step in PostgresSchema.steps[0..<3] { try old.execute(step) }
                try old.execute("INSERT INTO skillgate_schema (version) VALUES (3)")
                try old.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_a', 'a', 'h1', 0), ('tok_b', 'b', 'h2', 0)")
                for r in all {
                    try old.query("""
                        INSERT INTO usage_records (occurred_at, token_id, scenario, input_tokens, output_tokens, cost_microdollars, outcome, kind)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                        """, [String(r.occurredAt.millisecondsSince1970), r.tokenId, r.scenario, String(r.usage.inputTokens), String(r.usage.outputTokens),
                              r.costMicrodollars.map { String($0) }, r.outcome, r.kind.rawValue])
                }
                let store = try PostgresStateStore(url: db.url)
                let sqlite = try Self.sqliteLedger(dir, all)
                for since in Self.windows(now: now) {
                    #expect(try store.usageSummary(tokenId: "tok_a", since: since) == sqlite.usageSummary(tokenId: "tok_a", since: since), "since \(since)")
                    #expect(try store.usageSummary(scenario: "chat", since: since) == sqlite.usageSummary(scenario: "chat", since: since), "since \(since)")
                }
                let left = try old.query("SELECT count(*) FROM pg_indexes WHERE tablename = 'usage_records'").int64(0, 0)
                #expect(left == 2, "the primary key and the time index stay; the per-token and per-scenario ones went")
            }
        }
    }
}

/// A batch written after an outage can hold more totals than one statement takes parameters for.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PostgresUsageRollupLargeBatchTests {
    @Test func aBatchWithThousandsOfTotalsIsWrittenInSeveralStatements() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let store = try PostgresStateStore(url: db.url)
            let now = Date().millisecondsSince1970
            // 4,500 tokens × (minute + day) = 9,000 totals of tokens alone: 72,000 parameters in one statement would fail.
            let records = (0..<4_500).map { i in
                UsageRecord(occurredAt: Date(millisecondsSince1970: now - Int64(i % 50) * 60_000), tokenId: "tok_\(i)", scenario: "chat",
                            model: "p/m", usage: Usage(inputTokens: 1, outputTokens: 1), costMicrodollars: 1, outcome: "ok")
            }
            #expect(PostgresUsageRollup.rows(for: records).count > 8_191)
            try store.recordUsage(records)
            #expect(try store.usageSummary(tokenId: "tok_4499", since: Date(millisecondsSince1970: 0)).requests == 1)
            #expect(try store.usageSummary(scenario: "chat", since: Date(millisecondsSince1970: 0)).requests == 4_500)
        }
    }
}
