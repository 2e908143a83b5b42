import Foundation
import Synchronization
import SkillGateCore
import SkillGateTestSupport
import Testing
@testable import SkillGateState

/// Another process holds the database's write lock (an operator's `sqlite3` session, a `VACUUM`, a backup tool): a
/// writer of the store (a ledger batch, stored responses) then waits out the busy timeout while it holds the store's
/// main connection, and tries again soon after. The short reads a request needs — its token, a stored response, a
/// budget's running totals — go on without waiting for it (decision 0097).
@Suite(.serialized) struct SQLiteStateStoreLockedWriterTests {
    @Test func requestPathReadsDoNotWaitForAWriterBlockedByAnotherProcess() async throws {
        try await withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            let token = ClientToken(id: "tok_0000000000000001", name: "app", createdAt: Date(millisecondsSince1970: 1_700_000_000_000))
            try store.insertToken(token, hash: "h1")
            try store.saveResponses([StoredResponse(id: "resp_1", tokenId: token.id, createdAt: Date(),
                                                    expiresAt: Date().addingTimeInterval(3600), conversation: Array("[]".utf8))], now: Date())

            // "Another process": a connection of its own that takes the write lock and keeps it.
            let other = try SQLiteConnection(path: store.path)
            try other.execute("BEGIN EXCLUSIVE")
            let writerDone = Mutex(false)
            let writer = Task.detached {
                // Waits out the busy timeout (5 s) holding the store's main connection, then fails.
                _ = try? store.recordUsage(UsageRecord(occurredAt: Date()))
                writerDone.withLock { $0 = true }
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(!writerDone.withLock { $0 }, "the writer waits for the lock")

            let start = ContinuousClock.now
            let found = try store.token(hash: "h1")
            let response = try store.storedResponse(id: "resp_1", tokenId: token.id, now: Date())
            // A minute's start: answered from the running totals, as a per-minute limit is.
            let minute = Date(millisecondsSince1970: Date().millisecondsSince1970 / 60_000 * 60_000)
            let budget = try store.usageSummary(tokenId: token.id, since: minute)
            let elapsed = ContinuousClock.now - start

            try other.execute("COMMIT")
            await writer.value
            #expect(found?.token.id == token.id)
            #expect(response?.id == "resp_1")
            #expect(budget.requests == 0)
            #expect(elapsed < .seconds(1), "the reads waited \(elapsed) behind a writer blocked by another process's lock")
        }
    }

    @Test func lookupsSeeWhatTheMainConnectionCommittedAtOnce() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            #expect(try store.token(hash: "h2") == nil)
            let token = ClientToken(id: "tok_0000000000000002", name: "late", createdAt: Date(millisecondsSince1970: 1_700_000_000_000))
            try store.insertToken(token, hash: "h2")
            #expect(try store.token(hash: "h2")?.token.id == token.id)
            _ = try store.revokeToken(named: "late", at: Date(millisecondsSince1970: 1_700_000_001_000))
            #expect(try store.token(hash: "h2")?.token.revokedAt != nil)
        }
    }
}
