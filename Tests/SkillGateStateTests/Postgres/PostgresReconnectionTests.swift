import Foundation
import Synchronization
import Testing
import SkillGateCore
import SkillGateKeys
import SkillGateTestSupport
@testable import SkillGateState

/// A PostgreSQL server that restarts or fails over ends every connection the store holds. The store reconnects on its
/// next use, for token lookups, ledger batches (in a transaction) and reports alike, so an operator's restart of the
/// database costs the gateway the requests made while it was down and nothing after.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PostgresReconnectionTests {
    @Test func everyUseAfterTheServerEndedTheConnectionsSucceeds() async throws {
        try await offThePool { try Self.afterTermination() }
    }

    @Test func aBatchInterruptedInsideItsTransactionIsRolledBackAndTheNextOneLands() async throws {
        try await offThePool { try Self.interruptedTransaction() }
    }

    static func afterTermination() throws {
        let db = try PostgresTestDatabase()
        defer { db.drop() }
        let store = try PostgresStateStore(url: db.url)
        let service = TokenService(store: store)
        let created = try service.create(name: "app")
        try store.recordUsage([UsageLedgerStoreTests.row(.request, model: "p/light", input: 5, cost: 50)])
        _ = try store.usageReport(since: Date(millisecondsSince1970: 0), by: .model)  // opens the report connection
        #expect(try Self.endConnections(to: db) == 2, "the main and the report connection were both open")

        #expect(try store.token(hash: TokenFormat.hash(created.token))?.token.name == "app", "a lookup reconnects")
        try store.recordUsage([UsageLedgerStoreTests.row(.request, model: "p/strong", input: 1, cost: 10)])
        #expect(try store.usageReport(since: Date(millisecondsSince1970: 0), by: .model).map(\.key) == ["p/light", "p/strong"],
                "a ledger batch and a report reconnect, and the report sees every row")
        #expect(try Self.endConnections(to: db) == 2, "both connections were made again")
        #expect(try store.usageSummary(tokenId: nil, since: Date(millisecondsSince1970: 0)).costMicrodollars == 60)
    }

    /// The server's warnings reach the store's handler, one message a call, and never libpq's standard error (a
    /// gateway's log stream); the session's settings hold on a connection made again.
    @Test func warningsReachTheHandlerBeforeAndAfterAReconnection() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let notices = NoticeLog()
            let store = try PostgresStateStore(url: db.url, notices: notices.add)
            try store.withConnection { try $0.execute("DO $$ BEGIN RAISE WARNING 'disk nearly full'; RAISE NOTICE 'chatter'; END $$") }
            #expect(notices.all == ["WARNING:  disk nearly full"], "warnings are handed on, notices below warnings are not sent")
            _ = try Self.endConnections(to: db)
            try store.withConnection { try $0.execute("DO $$ BEGIN RAISE WARNING 'again'; RAISE NOTICE 'chatter'; END $$") }
            #expect(notices.all == ["WARNING:  disk nearly full", "WARNING:  again"], "the new connection has the same settings and handler")
        }
    }

    static func interruptedTransaction() throws {
        let db = try PostgresTestDatabase()
        defer { db.drop() }
        let notices = NoticeLog()
        let store = try PostgresStateStore(url: db.url, notices: notices.add)
        try store.withConnection { try $0.execute("CREATE TABLE batch (n INTEGER)") }
        // The server ends the connection between two statements of one transaction: the batch fails as a whole. Run
        // again on a new connection, the second statement would be committed alone, and the caller would think the
        // whole batch was.
        #expect(throws: (any Error).self) {
            try store.withConnection { connection in
                try connection.transaction {
                    try connection.execute("INSERT INTO batch VALUES (1)")
                    _ = try Self.endConnections(to: db)
                    try connection.execute("INSERT INTO batch VALUES (2)")
                }
            }
        }
        let kept = try PostgresConnection(url: db.url).query("SELECT count(*) FROM batch")
        #expect(kept.int64(0, 0) == 0, "nothing of the interrupted transaction was kept")
        #expect(notices.all.isEmpty, "no statement of the transaction was sent on a new connection: \(notices.all)")
        // The same when the connection is lost at the commit.
        #expect(throws: (any Error).self) {
            try store.withConnection { connection in
                try connection.transaction {
                    try connection.execute("INSERT INTO batch VALUES (3)")
                    _ = try Self.endConnections(to: db)
                }
            }
        }
        #expect(try PostgresConnection(url: db.url).query("SELECT count(*) FROM batch").int64(0, 0) == 0)
        #expect(notices.all.isEmpty, "no COMMIT on a new connection: \(notices.all)")
        try store.recordUsage([UsageLedgerStoreTests.row(.request, model: "p/strong", input: 1, cost: 10)])
        #expect(try store.usageSummary(tokenId: nil, since: Date(millisecondsSince1970: 0)).costMicrodollars == 10,
                "the next batch reconnected and landed")
    }

    /// Ends every connection to the test database but the caller's (as a restart does), waiting until each is gone, and
    /// returns how many there were.
    static func endConnections(to db: PostgresTestDatabase) throws -> Int {
        let admin = try PostgresConnection(url: PostgresTestDatabase.adminURL!)
        let rows = try admin.query("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                                   [db.name])
        return rows.count
    }
}

/// The notices a store handed on, in order.
final class NoticeLog: Sendable {
    private let messages = Mutex<[String]>([])

    var all: [String] { messages.locked { $0 } }

    func add(_ message: String) { messages.locked { $0.append(message) } }
}
