import Foundation
import Testing
import Synchronization
import SkillGateCore
import SkillGateState
import SkillGateProviders
@testable import SkillGateServer

/// The background writers (the usage ledger, the Responses archive) against a state store that keeps failing — a full
/// disk, a read-only file system, a missing table: they try again later and later, up to a few seconds apart, instead
/// of every batch interval (40 and 20 times a second, each try a warning in the log, and a whole-queue transaction per
/// request past a batch's worth), and write everything once the store works again (decision 0097).
@Suite struct StoreFailureBackoffTests {
    @Test func theLedgerBacksOffWhileTheStoreFailsAndCatchesUpAfter() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sg-backoff-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(stateDirectory: directory)
        _ = try store.withConnection { db in
            try db.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_0000000000000000', 'app', 'h', 0)")
            // Every insert fails at once from now on, as on a full disk.
            try db.execute("ALTER TABLE usage_records RENAME TO usage_records_away")
        }
        let problems = Mutex(0)
        let ledger = UsageLedger(store: store, flushInterval: .milliseconds(10), batchSize: 1) { _, _ in problems.locked { $0 += 1 } }
        var entry = RequestLogEntry(requestId: "req_x", method: "POST", path: "/v1/chat/completions")
        entry.tokenId = "tok_0000000000000000"
        entry.status = 200
        let row = UsageRecord.rows(for: entry, outcome: "ok", admitted: true)
        // A second of traffic (longer, up to 10 s, until a second attempt failed: the writer runs at a lowered
        // priority, and a machine loaded by other work may not run it twice in the first second), a record every
        // 10 ms: each one past a batch's worth wakes the writer. Without the backoff that is ~100 attempts a second;
        // with it, 10 attempts take over 10 s (waits of 20 ms doubling up to 5 s).
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(1)
                || (ledger.stats.failedWrites < 2 && ContinuousClock.now - start < .seconds(10)) {
            ledger.record(row)
            try await Task.sleep(for: .milliseconds(10))
        }
        let failed = ledger.stats.failedWrites
        let elapsed = ContinuousClock.now - start
        #expect(failed >= 2, "the writer kept trying")
        #expect(failed <= 12, "\(failed) write attempts in \(elapsed) against a failing store")
        #expect(problems.locked { $0 } <= 12)

        _ = try store.withConnection { db in try db.execute("ALTER TABLE usage_records_away RENAME TO usage_records") }
        let queued = ledger.stats.queued + ledger.stats.written
        let deadline = ContinuousClock.now + .seconds(15)
        while ledger.stats.written < queued && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(ledger.stats.written >= queued, "what was queued is written once the store works again")
        #expect(ledger.stats.dropped == 0)
        await ledger.closeOffThePool()
    }

    @Test func theResponseArchiveBacksOffWhileTheStoreFailsAndStoresAfter() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sg-backoff-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sqlite = try SQLiteStateStore(stateDirectory: directory)
        let store = ResponseArchiveTests.FlakyStore(sqlite)
        let warnings = Mutex(0)
        let archive = ResponseArchive(store: store, retention: 1, flushInterval: .milliseconds(10), now: { Date() }) { _ in
            warnings.locked { $0 += 1 }
        }
        let conversation = OpenAIResponsesFormat.conversationJSON([Message(role: .user, text: "Remember 7.")])
        archive.save(id: "resp_1", tokenId: "tok_a", conversation: conversation)
        // A second (longer, up to 10 s, until a second attempt failed, as in the ledger's test above).
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(1)
                || (store.attempts.locked { $0 } < 2 && ContinuousClock.now - start < .seconds(10)) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let attempts = store.attempts.locked { $0 }
        let elapsed = ContinuousClock.now - start
        #expect(attempts >= 2, "the writer kept trying")
        #expect(attempts <= 12, "\(attempts) write attempts in \(elapsed) against a failing store")
        #expect(warnings.locked { $0 } <= 12)

        store.failing.locked { $0 = false }
        let deadline = ContinuousClock.now + .seconds(15)
        while try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date()) == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date()) != nil)
        await archive.closeOffThePool()
    }
}
