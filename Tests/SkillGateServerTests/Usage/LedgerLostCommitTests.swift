import Foundation
import Testing
import SkillGateCore
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// The usage ledger on PostgreSQL counts every request once when a batch's `COMMIT` loses its connection after the
/// server committed it and the database cannot be reached for a while after (a failover): the writer keeps the
/// records, retries, and the store skips what the lost commit wrote (decision 0139).
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct LedgerLostCommitTests {
    @Test func aBatchCommittedUnheardDuringAnOutageIsCountedOnce() async throws {
        let db = try PostgresTestDatabase()
        defer { db.drop() }
        let interceptor = try PostgresCommitInterceptor(upstreamPort: UInt16(try #require(URLComponents(string: db.url)?.port)))
        defer { interceptor.stop() }
        let store = try PostgresStateStore(url: interceptor.url(through: db.url))
        interceptor.forgetCommitsSeen()
        let ledger = UsageLedger(store: store, flushInterval: .milliseconds(20))
        defer { ledger.close() }

        interceptor.atNextCommit(.loseTheAnswer)
        interceptor.refuseConnections(true)
        ledger.record([Self.record(1), Self.record(2)])
        try await Self.waitUntil { ledger.stats.failedWrites >= 1 }
        #expect(interceptor.commitsSeen == 1, "the batch reached the server and was committed; its answer was lost")
        ledger.record([Self.record(3)])
        try await Self.waitUntil { ledger.stats.failedWrites >= 2 }
        interceptor.refuseConnections(false)
        try await Self.waitUntil { ledger.stats.written == 3 }

        let rows = try PostgresConnection(url: db.url).query("SELECT request_id FROM usage_records ORDER BY occurred_at")
        #expect((0..<rows.count).map { rows.text($0, 0) ?? "" } == ["r1", "r2", "r3"], "every request once")
        #expect(try store.usageSummary(tokenId: nil, since: Date(timeIntervalSince1970: 0)).requests == 3)
        #expect(ledger.stats.dropped == 0)
    }

    /// The same batch, its fate still unknown when the gateway stops (the database unreachable to the end): it is kept
    /// in the spool with what is queued after it, and the next start asks the server about it before writing it
    /// (decision 0149). Committed unheard, it is not written again; never committed, it is written; the record queued
    /// after it is written once either way.
    @Test(arguments: [PostgresCommitInterceptor.CommitFault.loseTheAnswer, .loseTheCommit])
    func aLostCommitKeptOverAStopIsAskedAboutAtTheNextStart(_ fault: PostgresCommitInterceptor.CommitFault) async throws {
        let db = try PostgresTestDatabase()
        defer { db.drop() }
        let interceptor = try PostgresCommitInterceptor(upstreamPort: UInt16(try #require(URLComponents(string: db.url)?.port)))
        defer { interceptor.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sg-spool-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = LedgerSpool(directory: directory + "/ledger-spool")
        let store = try PostgresStateStore(url: interceptor.url(through: db.url))
        interceptor.forgetCommitsSeen()
        let ledger = UsageLedger(store: store, flushInterval: .milliseconds(20), spool: spool)
        interceptor.atNextCommit(fault)
        interceptor.refuseConnections(true)
        ledger.record([Self.record(1), Self.record(2)])
        try await Self.waitUntil { ledger.stats.failedWrites >= 1 }
        ledger.record([Self.record(3)])
        try await offThePool { [ledger] in ledger.close() }
        let claimed = spool.claim()
        #expect(claimed.count == 1)
        let kept = try spool.load(try #require(claimed.first))
        #expect(kept.records.map(\.requestId) == ["r1", "r2", "r3"] && kept.unsettled?.count == 2, "the unsettled batch kept at the front")
        claimed.forEach(spool.giveBack)

        let next = UsageLedger(store: try PostgresStateStore(url: db.url), flushInterval: .milliseconds(20), spool: spool)
        let count = { try PostgresConnection(url: db.url).query("SELECT count(*) FROM usage_records").text(0, 0) }
        try await Self.waitUntil { (try? count()) == "3" && spool.claim().isEmpty }
        try await offThePool { [next] in next.close() }
        let rows = try PostgresConnection(url: db.url).query("SELECT request_id FROM usage_records ORDER BY occurred_at")
        #expect((0..<rows.count).map { rows.text($0, 0) ?? "" } == ["r1", "r2", "r3"], "every request once")
        #expect(try PostgresStateStore(url: db.url).usageSummary(tokenId: nil, since: Date(timeIntervalSince1970: 0)).requests == 3)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: directory + "/ledger-spool"))?.isEmpty == true)
    }

    static func record(_ n: Int) -> UsageRecord {
        UsageRecord(occurredAt: Date(timeIntervalSince1970: 1_780_000_000 + Double(n)), requestId: "r\(n)", scenario: "chat",
                    model: "p/m", usage: Usage(inputTokens: n, outputTokens: 1), costMicrodollars: 10, outcome: "ok")
    }

    /// Waits up to 20 s (the writer backs off up to a few seconds between failed writes).
    static func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out", sourceLocation: sourceLocation)
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
