import CSQLite
import Foundation
import Synchronization
import SkillGateCore
import SkillGateTestSupport
import Testing
@testable import SkillGateState

/// Another process holds the database's write lock (an operator's `sqlite3` session, a `VACUUM`, a backup tool). A
/// writer of the store (a ledger batch, stored responses) waits for it without holding the store's main connection, so
/// the short reads a request needs (its token, a stored response, a budget's running totals) go on meanwhile; the
/// write lands once the lock is free, or fails after the busy timeout (decision 0100).
///
/// "Another process" is a second connection of this test's own: SQLite's file locks work the same between two
/// connections of one process as between two processes.
@Suite(.serialized) struct SQLiteStateStoreLockedWriterTests {
    static let token = ClientToken(id: "tok_0000000000000001", name: "app", createdAt: Date(millisecondsSince1970: 1_700_000_000_000))

    /// Opening a file whose schema is up to date takes no write lock (decision 0124): `skillgate notes list` (or a
    /// gateway starting) while an operator's session held the lock waited out the busy timeout in the migration's
    /// `BEGIN IMMEDIATE` and failed with "database is locked", though it only reads.
    @Test func anUpToDateFileOpensWhileAnotherProcessHoldsTheWriteLock() throws {
        try withTemporaryDirectory { dir in
            do {
                let store = try SQLiteStateStore(stateDirectory: dir)
                _ = try store.saveNote(tokenName: "app", title: nil, text: "kept")
            }
            let other = try SQLiteConnection(path: dir + "/state.sqlite")
            try other.execute("BEGIN IMMEDIATE")
            defer { try? other.execute("ROLLBACK") }
            let start = ContinuousClock.now
            let reopened = try SQLiteStateStore(stateDirectory: dir, busyTimeout: .milliseconds(300))
            #expect(try reopened.listNotes(tokenName: "app", limit: 10).map(\.text) == ["kept"])
            #expect(ContinuousClock.now - start < .milliseconds(300), "the open waited for the lock")
        }
    }

    @Test func requestPathReadsDoNotWaitForAWriterBlockedByAnotherProcess() async throws {
        try await withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            try store.insertToken(Self.token, hash: "h1")
            try store.saveResponses([StoredResponse(id: "resp_1", tokenId: Self.token.id, createdAt: Date(),
                                                    expiresAt: Date().addingTimeInterval(3600), conversation: Array("[]".utf8))], now: Date())

            let other = try SQLiteConnection(path: store.path)
            try other.execute("BEGIN EXCLUSIVE")
            let writerDone = Mutex(false)
            // The minute the record falls in, from its own time: a minute that began between the record and the reads
            // below left it out of the summary (one stress run of ten).
            let occurredAt = Date()
            let minute = Date(millisecondsSince1970: occurredAt.millisecondsSince1970 / 60_000 * 60_000)
            // On threads of their own, as the ledger's writer is: a wait for the lock blocks its thread.
            async let writer: Void = offThePool {
                try store.recordUsage(UsageRecord(occurredAt: occurredAt, tokenId: Self.token.id))
                writerDone.locked { $0 = true }
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(!writerDone.locked { $0 }, "the writer waits for the lock")

            let start = ContinuousClock.now
            let found = try store.token(hash: "h1")
            let response = try store.storedResponse(id: "resp_1", tokenId: Self.token.id, now: Date())
            // From a minute's start: answered from the running totals, as a per-minute limit is.
            let budget = try store.usageSummary(tokenId: Self.token.id, since: minute)
            let elapsed = ContinuousClock.now - start

            try other.execute("COMMIT")
            try await writer
            #expect(found?.token.id == Self.token.id)
            #expect(response?.id == "resp_1")
            #expect(budget.requests == 0, "the batch was not written yet")
            #expect(elapsed < .seconds(1), "the reads waited \(elapsed) behind a writer blocked by another process's lock")
            // Once the lock was free, the batch landed.
            #expect(try store.usageSummary(tokenId: Self.token.id, since: minute).requests == 1)
        }
    }

    @Test func aWriteFailsAfterTheBusyTimeoutAndLeavesNoTransactionOpen() async throws {
        try await withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir, busyTimeout: .milliseconds(300))
            let other = try SQLiteConnection(path: store.path)
            try other.execute("BEGIN EXCLUSIVE")
            let (outcome, waited) = try await Self.timedOffThePool { try store.insertToken(Self.token, hash: "h1") }
            let error = #expect(throws: SQLiteError.self) { try outcome.get() }
            #expect(error?.primaryCode == SQLITE_BUSY)
            #expect(error?.description.contains("another process") == true, "\(String(describing: error))")
            #expect(waited >= .milliseconds(300) && waited < .seconds(3), "gave up after \(waited)")
            // Reads went on meanwhile, and after the lock is released the same write succeeds: nothing was left begun.
            #expect(try store.token(hash: "h1") == nil)
            try other.execute("COMMIT")
            try store.insertToken(Self.token, hash: "h1")
            #expect(try store.token(hash: "h1")?.token.id == Self.token.id)
        }
    }

    /// Two writers of this process and another process's lock: both wait, neither is lost, and each write is whole.
    @Test func writersOfThisProcessBothLandOnceTheLockIsFree() async throws {
        try await withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            try store.insertToken(Self.token, hash: "h1")
            let other = try SQLiteConnection(path: store.path)
            try other.execute("BEGIN EXCLUSIVE")
            async let ledger: Void = offThePool { try store.recordUsage((0..<40).map { _ in UsageRecord(occurredAt: Date(), tokenId: Self.token.id) }) }
            async let revoke = offThePool { try store.revokeToken(named: "app", at: Date(millisecondsSince1970: 1_700_000_001_000)) }
            try await Task.sleep(for: .milliseconds(150))
            try other.execute("COMMIT")
            try await ledger
            #expect(try await revoke?.revokedAt != nil)
            #expect(try store.token(hash: "h1")?.token.revokedAt != nil)
            #expect(try store.usageSummary(tokenId: Self.token.id, since: Date(millisecondsSince1970: 0)).requests == 40)
        }
    }

    /// The busy timeout reaches SQLite in milliseconds, rounded up: a statement written outside `withWriteTransaction`
    /// waits that long for the lock, neither at once nor forever.
    @Test func theBusyTimeoutReachesSQLiteInMilliseconds() async throws {
        #expect(SQLiteStateStore.milliseconds(.seconds(5)) == 5000)
        #expect(SQLiteStateStore.milliseconds(.milliseconds(300)) == 300)
        #expect(SQLiteStateStore.milliseconds(.microseconds(300)) == 1)
        #expect(SQLiteStateStore.milliseconds(.seconds(10_000_000)) == Int32.max)
        try await withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir, busyTimeout: .milliseconds(300))
            let other = try SQLiteConnection(path: store.path)
            try other.execute("BEGIN EXCLUSIVE")
            let (outcome, waited) = try await Self.timedOffThePool { try store.withConnection { try $0.execute("DELETE FROM notes") } }
            #expect(throws: SQLiteError.self) { try outcome.get() }
            try other.execute("COMMIT")
            #expect(waited >= .milliseconds(250) && waited < .seconds(3), "SQLite waited \(waited)")
        }
    }

    /// A writer waiting for the lock sleeps between its tries: over a second's wait it uses a few milliseconds of CPU,
    /// not a second's (a conversion that rounded its pauses to zero made it spin).
    @Test func aWaitingWriterSleepsBetweenItsTries() async throws {
        try await withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            let other = try SQLiteConnection(path: store.path)
            try other.execute("BEGIN EXCLUSIVE")
            async let cpu: Duration = offThePool {
                let before = Self.threadCPUTime()
                try store.recordUsage(UsageRecord(occurredAt: Date()))
                return Self.threadCPUTime() - before
            }
            // Off the shared task pool too: a parallel run that keeps the pool busy for seconds must not keep the lock
            // held past the writer's 5 s wait.
            // The connection is used by one thread at a time: this one, then that one.
            nonisolated(unsafe) let holder = other
            try await offThePool {
                usleep(1_000_000)
                try holder.execute("COMMIT")
            }
            let used = try await cpu
            #expect(used < .milliseconds(50), "the writer used \(used) of CPU waiting a second for the lock")
        }
    }

    /// Runs `work`, which waits for the write lock (up to the busy timeout), on a thread of its own (`offThePool`): a
    /// wait of a thread of the shared task pool would hold back the other tests' tasks. Returns how it ended and how
    /// long it took.
    static func timedOffThePool(_ work: @escaping @Sendable () throws -> Void) async throws -> (outcome: Result<Void, any Error>, took: Duration) {
        try await offThePool {
            let start = ContinuousClock.now
            let outcome = Result { try work() }
            return (outcome, ContinuousClock.now - start)
        }
    }

    /// CPU time the calling thread has used.
    static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
