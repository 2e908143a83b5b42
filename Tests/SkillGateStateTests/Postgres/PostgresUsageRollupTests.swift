import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// On a real PostgreSQL: the limits' sums read from the running totals equal the sums over the records (counted in
/// the test), written in several batches by two instances; and a database with a ledger from before the totals
/// existed gets them when it migrates.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PostgresUsageRollupTests {
    @Test func limitSumsFromTheTotalsEqualSumsOverTheRows() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let now = Date()
            let all = UsageRollupFixtures.records(now: now.millisecondsSince1970)
            let instances = [try PostgresStateStore(url: db.url), try PostgresStateStore(url: db.url)]
            for (i, batch) in stride(from: 0, to: all.count, by: 50).map({ Array(all[$0..<min(all.count, $0 + 50)]) }).enumerated() {
                try instances[i % 2].recordUsage(batch)
            }
            for since in UsageRollupFixtures.windows(now: now) {
                for token in ["tok_a", "tok_b"] {
                    #expect(try instances[0].usageSummary(tokenId: token, since: since) == UsageRollupFixtures.sums(all, token: token, since: since), "\(token) since \(since)")
                }
                for scenario in ["chat", "support"] {
                    #expect(try instances[1].usageSummary(scenario: scenario, since: since) == UsageRollupFixtures.sums(all, scenario: scenario, since: since), "\(scenario) since \(since)")
                }
            }
        }
    }

    @Test func aLedgerFromBeforeTheTotalsGetsThemWhenItMigrates() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let now = Date()
            let all = UsageRollupFixtures.records(now: now.millisecondsSince1970)
            // The schema as it was before step 4, and a ledger written then (with the tokens the old foreign key wants).
            let old = try db.connection(schemaThrough: 3)
            try old.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_a', 'a', 'h1', 0), ('tok_b', 'b', 'h2', 0)")
            for r in all {
                try old.query("""
                    INSERT INTO usage_records (occurred_at, token_id, scenario, input_tokens, output_tokens, cost_microdollars, outcome, kind)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                    """, [String(r.occurredAt.millisecondsSince1970), r.tokenId, r.scenario, String(r.usage.inputTokens), String(r.usage.outputTokens),
                          r.costMicrodollars.map { String($0) }, r.outcome, r.kind.rawValue])
            }
            let store = try PostgresStateStore(url: db.url)
            for since in UsageRollupFixtures.windows(now: now) {
                #expect(try store.usageSummary(tokenId: "tok_a", since: since) == UsageRollupFixtures.sums(all, token: "tok_a", since: since), "since \(since)")
                #expect(try store.usageSummary(scenario: "chat", since: since) == UsageRollupFixtures.sums(all, scenario: "chat", since: since), "since \(since)")
            }
            let left = try old.query("SELECT count(*) FROM pg_indexes WHERE tablename = 'usage_records'").int64(0, 0)
            #expect(left == 2, "the primary key and the time index stay; the per-token and per-scenario ones went")
            let time = try old.query("SELECT indexdef FROM pg_indexes WHERE indexname = 'usage_records_time_brin'")
            #expect(time.count == 1 && (time.text(0, 0) ?? "").contains("USING brin"), "the time index is a BRIN index (step 5)")
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
            #expect(UsageRollup.rows(for: records).count > 8_191)
            try store.recordUsage(records)
            #expect(try store.usageSummary(tokenId: "tok_4499", since: Date(millisecondsSince1970: 0)).requests == 1)
            #expect(try store.usageSummary(scenario: "chat", since: Date(millisecondsSince1970: 0)).requests == 4_500)
        }
    }
}
