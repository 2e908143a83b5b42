import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// A ledger batch whose `COMMIT` lost its connection is written exactly once, whether the server committed it before
/// the connection went or not, and also when the server could not be asked until later (decision 0139). The batch is
/// handed back the way the ledger's writer does: after a failed write, the same records first, then what was queued
/// meanwhile.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PostgresLostCommitTests {
    @Test(arguments: [PostgresCommitInterceptor.CommitFault.loseTheAnswer, .loseTheCommit])
    func aBatchWhoseCommitLostItsConnectionIsWrittenOnce(fault: PostgresCommitInterceptor.CommitFault) async throws {
        try await offThePool {
            try Self.withInterceptedStore { store, interceptor, db in
                interceptor.atNextCommit(fault)
                let first = [Self.record(1, cost: 10), Self.record(2, cost: 20)]
                let error = Self.write(first, to: store)
                let failed = error != nil
                #expect(interceptor.commitsSeen == 1)
                // The server committed: the store asked it and knows. It did not: the writer retries the records.
                #expect(failed == (fault == .loseTheCommit), "a commit that landed is success, one that did not is a failed write")
                // Rolled back, as the server says once it has seen the connection end (or, on a slow machine, not known yet: the
                // retry then asks first). Either way the retry below writes each record once.
                if let error {
                    #expect(["the server rolled the batch back; its records stay queued and are written again",
                             "whether the server committed the batch is not known yet"].contains { "\(error)".contains($0) }, "\(error)")
                }
                try Self.waitUntilTheServerEndedTheLostTransaction(db)
                let next = (failed ? first : []) + [Self.record(3, cost: 40)]
                #expect(!Self.writeLikeTheLedger(next, to: store))
                try Self.expectWrittenOnce(requests: ["r1", "r2", "r3"], cost: 70, in: db, store: store)
            }
        }
    }

    @Test(arguments: [PostgresCommitInterceptor.CommitFault.loseTheAnswer, .loseTheCommit])
    func aLostCommitIsSettledWhenTheServerCanBeAskedAgain(fault: PostgresCommitInterceptor.CommitFault) async throws {
        try await offThePool {
            try Self.withInterceptedStore { store, interceptor, db in
                interceptor.atNextCommit(fault)
                // The connection is lost at the commit, and the server cannot be reached again for a while.
                interceptor.refuseConnections(true)
                let first = [Self.record(1, cost: 10), Self.record(2, cost: 20)]
                let error = try #require(Self.write(first, to: store), "the outcome is not known: the write failed")
                #expect("\(error)".contains("whether the server committed the batch is not known yet; its records stay queued"), "\(error)")
                let second = first + [Self.record(3, cost: 40)]
                #expect(Self.writeLikeTheLedger(second, to: store), "still unreachable: the writer keeps the records")
                interceptor.refuseConnections(false)
                try Self.waitUntilTheServerEndedTheLostTransaction(db)
                #expect(!Self.writeLikeTheLedger(second + [Self.record(4, cost: 80)], to: store))
                try Self.expectWrittenOnce(requests: ["r1", "r2", "r3", "r4"], cost: 150, in: db, store: store)
                #expect(interceptor.commitsSeen == 2, "one lost commit and one after: nothing was written while the fate of the first was open")
            }
        }
    }

    /// When the ledger's writer put back only part of a batch that was committed unheard (its queue was full), only
    /// that part is skipped.
    @Test func aCommittedBatchPutBackInPartSkipsOnlyThatPart() async throws {
        try await offThePool {
            try Self.withInterceptedStore { store, interceptor, db in
                interceptor.atNextCommit(.loseTheAnswer)
                interceptor.refuseConnections(true)
                let first = [Self.record(1, cost: 10), Self.record(2, cost: 20), Self.record(3, cost: 40)]
                #expect(Self.writeLikeTheLedger(first, to: store))
                interceptor.refuseConnections(false)
                #expect(!Self.writeLikeTheLedger([first[0], Self.record(5, cost: 80)], to: store))
                try Self.expectWrittenOnce(requests: ["r1", "r2", "r3", "r5"], cost: 150, in: db, store: store)
            }
        }
    }

    /// A transaction's id comes with its `BEGIN`, and the server tells a committed one from a rolled-back one.
    @Test func theServerSaysWhatBecameOfAnIdentifiedTransaction() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let connection = try PostgresConnection(url: db.url)
            let committed = try connection.identifiedTransaction { id in id }
            #expect(try connection.commitStatus(ofTransaction: committed) == .committed)
            var rolledBack = ""
            #expect(throws: (any Error).self) {
                try connection.identifiedTransaction { id in
                    rolledBack = id
                    try connection.execute("SELECT 1/0")
                }
            }
            #expect(!rolledBack.isEmpty && rolledBack != committed)
            #expect(try connection.commitStatus(ofTransaction: rolledBack) == .rolledBack)
            #expect(try connection.query("SELECT 1").int64(0, 0) == 1, "the connection is usable after the rollback")
        }
    }

    // MARK: Helpers

    static func record(_ n: Int, cost: Int64) -> UsageRecord {
        var record = UsageRecord(occurredAt: Date(millisecondsSince1970: 1_780_000_000_000 + Int64(n)), requestId: "r\(n)", scenario: "chat",
                                 model: "p/m", usage: Usage(inputTokens: n, outputTokens: 1), costMicrodollars: cost, outcome: "ok")
        record.tokenName = "app"
        return record
    }

    /// One write as the ledger's writer makes it; true when it failed (the writer then keeps the records).
    static func writeLikeTheLedger(_ records: [UsageRecord], to store: PostgresStateStore) -> Bool {
        write(records, to: store) != nil
    }

    /// One write; what it threw.
    static func write(_ records: [UsageRecord], to store: PostgresStateStore) -> (any Error)? {
        do {
            try store.recordUsage(records)
            return nil
        } catch {
            return error
        }
    }

    /// A connection cut before its `COMMIT` reached the server leaves the transaction open until the server reads the
    /// connection's end, which on a loaded machine can come after the next write asks about it (the store then says
    /// "still committing" and the ledger's writer would try again later). The tests wait for the server instead.
    static func waitUntilTheServerEndedTheLostTransaction(_ db: PostgresTestDatabase) throws {
        let admin = try PostgresConnection(url: PostgresTestDatabase.adminURL!)
        let deadline = Date().addingTimeInterval(10)
        while try admin.query("SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND state LIKE 'idle in transaction%'",
                              [db.name]).int64(0, 0) > 0, Date() < deadline {
            usleep(10_000)
        }
    }

    static func expectWrittenOnce(requests: [String], cost: Int64, in db: PostgresTestDatabase, store: PostgresStateStore,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rows = try PostgresConnection(url: db.url).query("SELECT request_id FROM usage_records ORDER BY occurred_at")
        #expect((0..<rows.count).map { rows.text($0, 0) ?? "" } == requests, "each record once", sourceLocation: sourceLocation)
        #expect(try store.usageSummary(tokenId: nil, since: Date(millisecondsSince1970: 0)).costMicrodollars == cost,
                "the running totals counted each batch once", sourceLocation: sourceLocation)
    }

    static func withInterceptedStore(_ body: (PostgresStateStore, PostgresCommitInterceptor, PostgresTestDatabase) throws -> Void) throws {
        let db = try PostgresTestDatabase()
        defer { db.drop() }
        let port = try #require(URLComponents(string: db.url)?.port)
        let interceptor = try PostgresCommitInterceptor(upstreamPort: UInt16(port))
        defer { interceptor.stop() }
        let store = try PostgresStateStore(url: interceptor.url(through: db.url))
        interceptor.forgetCommitsSeen()  // the migration's
        try body(store, interceptor, db)
    }
}
