import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// The ledger hands written records back to the threads that queued them, which release them two at a time when they
/// have time (an event loop spinning for an upstream answer), instead of releasing them on its own thread in the event
/// loops' malloc arenas (decision 0109).
@Suite struct UsageLedgerReleaseTests {
    @Test func writtenRecordsAreReleasedByTheThreadThatQueuedThem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sg-release-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(stateDirectory: directory)
        _ = try store.withConnection { db in
            try db.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_0000000000000000', 'app', 'h', 0)")
        }
        // A long interval: the writer takes the next record long after the count below is read (a flush cuts it short).
        let ledger = UsageLedger(store: store, flushInterval: .seconds(2))
        defer { ledger.close() }
        var entry = RequestLogEntry(requestId: "req_x", method: "POST", path: "/v1/chat/completions")
        entry.tokenId = "tok_0000000000000000"
        entry.status = 200
        let rows = UsageRecord.rows(for: entry, outcome: "ok")
        try #require(rows.count == 1)
        for _ in 0..<6 { ledger.record(rows) }
        ledger.flush()
        #expect(ledger.stats.written == 6)
        #expect(ledger.recordsAwaitingRelease == 6)
        ledger.releaseSomeWritten()
        #expect(ledger.recordsAwaitingRelease == 4)
        ledger.record(rows)
        #expect(ledger.recordsAwaitingRelease == 4)
        ledger.flush()
        // The newest batch waits now; what was left of the one before went back to the writer.
        #expect(ledger.recordsAwaitingRelease == 1)
        #expect(ledger.stats.written == 7)
    }
}
