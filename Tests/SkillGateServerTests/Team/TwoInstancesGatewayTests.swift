import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// Two gateway instances on one PostgreSQL database (`state.postgres_url`): tokens, revocation, the usage ledger and
/// budgets are shared.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct TwoInstancesGatewayTests {
    static let chat = #"{"model":"light","messages":[{"role":"user","content":"Hello there"}]}"#

    static func pair(_ db: PostgresTestDatabase, tokenLimits: TokenLimits = TokenLimits()) throws -> (TeamHarness, TeamHarness) {
        let shared = #","state":{"postgres_url":"\#(db.url)"},"ledger":{"flush_interval_ms":100}"#
        let a = try TeamHarness(extraConfig: shared, tokenLimits: tokenLimits, start: nil)
        let b = try TeamHarness(extraConfig: shared, start: nil, existingToken: a.token)
        return (a, b)
    }

    @Test func aTokenCreatedOnOneWorksOnBothAndUsageFromBothIsInOneReport() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let (a, b) = try Self.pair(db)
        let onA = try await a.post("/v1/chat/completions", Self.chat)
        let onB = try await b.post("/v1/chat/completions", Self.chat)
        _ = try await b.post("/v1/messages", #"{"model":"strong","max_tokens":32,"messages":[{"role":"user","content":"Hi"}]}"#)
        await a.server.flushLedger()
        await b.server.flushLedger()
        let url = db.url
        let report = try await offThePool { try PostgresStateStore(url: url).usageReport(since: Date(timeIntervalSince1970: 0), by: .token) }
        await a.stop()
        await b.stop()
        #expect(onA.status == 200 && onB.status == 200)
        #expect(report.map(\.key) == ["team-app"])
        #expect(report.first?.requests == 3)
    }

    @Test func aTokenRevokedThroughOneIsRefusedByBothWithinTwoSeconds() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let (a, b) = try Self.pair(db)
        #expect(try await b.post("/v1/chat/completions", Self.chat).status == 200)  // cached on B now
        try a.server.services.tokens.revoke(name: "team-app")
        let revokedAt = ContinuousClock.now
        var status = 200
        // When each request was sent, after the revocation: what must hold is that a request *sent* more than the cache's
        // lifetime after it is refused. (A request admitted just before, which a loaded parallel run then took seconds
        // to answer, once ended this loop's old time bound with a 200 it was entitled to.)
        var lastAcceptedSentAfter: Duration = .zero
        while status == 200 && ContinuousClock.now - revokedAt < .seconds(8) {
            let sent = ContinuousClock.now - revokedAt
            status = try await b.post("/v1/chat/completions", Self.chat).status
            if status == 200 {
                lastAcceptedSentAfter = sent
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        let onA = try await a.post("/v1/chat/completions", Self.chat).status
        await a.stop()
        await b.stop()
        #expect(onA == 401)
        #expect(status == 401)
        #expect(lastAcceptedSentAfter < .milliseconds(2600), "B accepted a request sent \(lastAcceptedSentAfter) after the revocation")
    }

    @Test func aBudgetSpentAcrossBothStopsBoth() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        // Each demo answer costs about $0.01 at the harness's prices; spend on A until it refuses.
        let (a, b) = try Self.pair(db, tokenLimits: TokenLimits(budgetUSDPerDay: 0.03))
        var onA: [Int] = []
        for _ in 0..<10 { onA.append(try await a.post("/v1/chat/completions", Self.chat).status) }
        await a.server.flushLedger()
        try await Task.sleep(for: .milliseconds(1100))  // B reads the shared spend again at most a second later
        let onB = try await b.post("/v1/chat/completions", Self.chat)
        await a.stop()
        await b.stop()
        #expect(onA.contains(429))
        #expect(onB.status == 429, "B sees what A spent")
        #expect(String(decoding: onB.body, as: UTF8.self).contains("daily budget"))
    }

    /// A per-minute limit across instances: each re-reads the shared ledger about once a second, so requests through
    /// one count on the other (the slack is what the others admitted in the last second or so).
    @Test func requestsPerMinuteAddUpAcrossInstances() async throws {
        // Stay inside one UTC minute: start in its first 50 seconds.
        let second = Int(Date().timeIntervalSince1970) % 60
        if second > 50 { try await Task.sleep(for: .seconds(61 - second)) }
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let (a, b) = try Self.pair(db, tokenLimits: TokenLimits(requestsPerMinute: 4))
        var onA: [Int] = []
        for _ in 0..<4 { onA.append(try await a.post("/v1/chat/completions", Self.chat).status) }
        await a.server.flushLedger()
        try await Task.sleep(for: .milliseconds(1100))
        let onB = try await b.post("/v1/chat/completions", Self.chat)
        await a.stop()
        await b.stop()
        #expect(onA == [200, 200, 200, 200])
        #expect(onB.status == 429, "B counts the 4 requests A admitted this minute")
        #expect(String(decoding: onB.body, as: UTF8.self).contains("requests_per_minute"))
    }

    /// 32 concurrent clients spread over both instances against one per-minute limit. Decision 0027's bound: once the
    /// limit is reached anywhere, the other instance stops admitting within its re-read (1 s) plus the ledger's flush
    /// interval (100 ms here), so everything admitted beyond the limit happened in that window after the limit-th
    /// admission — and, with traffic paced so that neither instance reaches the limit on its own count first, the
    /// total stays well below what two unshared counters would allow (2 × the limit).
    @Test func aPerMinuteLimitHoldsUnder32ClientsOverBothInstances() async throws {
        let second = Int(Date().timeIntervalSince1970) % 60
        if second > 45 { try await Task.sleep(for: .seconds(61 - second)) }
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let limit = 60
        let (a, b) = try Self.pair(db, tokenLimits: TokenLimits(requestsPerMinute: limit))
        let start = Date()
        // 32 clients, one request every 1.6 s each (about 20 per second per instance), for 6 s.
        let outcomes = try await withThrowingTaskGroup(of: [(Date, Int)].self) { group in
            for client in 0..<32 {
                let instance = client % 2 == 0 ? a : b
                group.addTask {
                    var seen: [(Date, Int)] = []
                    try await Task.sleep(for: .milliseconds(50 * client))
                    while Date().timeIntervalSince(start) < 6 {
                        let status = try await instance.post("/v1/chat/completions", Self.chat).status
                        seen.append((Date(), status))
                        try await Task.sleep(for: .milliseconds(1600))
                    }
                    return seen
                }
            }
            var all: [(Date, Int)] = []
            for try await seen in group { all += seen }
            return all.sorted { $0.0 < $1.0 }
        }
        await a.stop()
        await b.stop()
        let admitted = outcomes.filter { $0.1 == 200 }
        #expect(Set(outcomes.map(\.1)).isSubset(of: [200, 429]), "\(Set(outcomes.map(\.1)))")
        #expect(outcomes.count > limit + 20, "the clients offered more than the limit: \(outcomes.count)")
        let reached = try #require(admitted.count >= limit ? admitted[limit - 1].0 : nil, "the limit was reached")
        let window = 1.0 + 0.1 + 0.5  // re-read + flush interval + scheduling margin on a loaded machine
        let late = admitted.filter { $0.0.timeIntervalSince(reached) > window }
        #expect(late.isEmpty, "\(late.count) admitted more than \(window) s after the limit was reached")
        #expect(admitted.count < 2 * limit, "shared counting admitted \(admitted.count), unshared would allow \(2 * limit)")
    }

    /// The database goes away while the gateway runs: requests whose token is not cached get a 503 saying what to do,
    /// usage of requests answered meanwhile stays queued, nothing crashes, and all is well once it is back.
    @Test func aDatabaseOutageIs503AndTheGatewayRecovers() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let (a, b) = try Self.pair(db)
        await b.stop()
        let name = db.name
        let admin = try #require(PostgresTestDatabase.adminURL)
        let before = try await a.post("/v1/chat/completions", Self.chat)
        try await offThePool {
            let conn = try PostgresConnection(url: admin)
            try conn.execute("ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
            try conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
        }
        let cached = try await a.post("/v1/chat/completions", Self.chat)  // within the token cache's 2 s
        try await Task.sleep(for: .milliseconds(2200))
        let during = try await a.post("/v1/chat/completions", Self.chat)
        try await offThePool { try PostgresConnection(url: admin).execute("ALTER DATABASE \(name) ALLOW_CONNECTIONS true") }
        let after = try await a.post("/v1/chat/completions", Self.chat)
        await a.server.flushLedger()
        let url = db.url
        let report = try await offThePool { try PostgresStateStore(url: url).usageReport(since: Date(timeIntervalSince1970: 0), by: .token) }
        await a.stop()
        #expect(before.status == 200 && cached.status == 200)
        #expect(during.status == 503)
        let message = try JSONValue.parse(during.body)["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("cannot reach its state database") && message.contains("retry"), "\(message)")
        #expect(during.headers["retry-after"] == "2")
        #expect(after.status == 200)
        #expect(report.first?.requests == 3, "the row queued during the outage was written once the database was back: \(report)")
    }
}
