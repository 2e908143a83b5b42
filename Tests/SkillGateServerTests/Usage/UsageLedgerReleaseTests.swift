import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer
import SkillGateTestSupport

/// The ledger hands written records back to the threads that queued them, which release them two at a time when they
/// have time (an event loop spinning for an upstream answer), instead of releasing them on its own thread in the event
/// loops' malloc arenas (decision 0109).
@Suite struct UsageLedgerReleaseTests {
    @Test func writtenRecordsAreReleasedByTheThreadThatQueuedThem() async throws {
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
        let rows = UsageRecord.rows(for: entry, outcome: "ok", admitted: true)
        try #require(rows.count == 1)
        // The flushes wait for the writer: on a thread of their own (`offThePool`), not one the suite's tasks share.
        let (counts, written) = try await offThePool { () -> ([Int], [Int]) in
            var counts: [Int] = []
            var written: [Int] = []
            for _ in 0..<6 { ledger.record(rows) }
            ledger.flush()
            written.append(ledger.stats.written)
            counts.append(ledger.recordsAwaitingRelease)
            ledger.releaseSomeWritten()
            counts.append(ledger.recordsAwaitingRelease)
            ledger.record(rows)
            counts.append(ledger.recordsAwaitingRelease)
            ledger.flush()
            // The newest batch waits now; what was left of the one before went back to the writer.
            counts.append(ledger.recordsAwaitingRelease)
            written.append(ledger.stats.written)
            return (counts, written)
        }
        #expect(counts == [6, 4, 4, 1])
        #expect(written == [6, 7])
    }
}
