import Dispatch
import Foundation
import SkillGateTestSupport
import Synchronization
import Testing
@testable import SkillGateState

/// The ledger's long reads (usage reports, sums over its rows) run on a read-only connection of their own (decision
/// 0089): a report on a large ledger (~0.7 s over a million rows) never holds up a token lookup or a ledger batch, and
/// never waits for them.
@Suite struct ReportConnectionTests {
    /// `finishes`, with its waits for those threads on one more thread (`offThePool`), not on one of the shared task
    /// pool's: for async tests.
    static func finishesOffThePool<T: Sendable>(whileHolding hold: @escaping @Sendable (_ inside: @Sendable () -> Void) -> Void,
                                                _ body: @escaping @Sendable () throws -> T) async throws -> (finished: Bool, value: T?)
    {
        try await offThePool { Self.finishes(whileHolding: hold, body) }
    }

    /// Runs `body` on a thread of its own while `hold` keeps a connection (each on threads of their own), and says
    /// whether it finished within 5 s. The connection is let go either way, and `body`'s value returned once it ends.
    /// Blocks the calling thread meanwhile.
    static func finishes<T: Sendable>(whileHolding hold: @escaping @Sendable (_ inside: @Sendable () -> Void) -> Void,
                                      _ body: @escaping @Sendable () throws -> T) -> (finished: Bool, value: T?)
    {
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread { hold { held.signal(); release.wait() } }.start()
        held.wait()
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        Thread {
            let value = try? body()
            result.locked { $0 = value }
            done.signal()
        }.start()
        let finished = done.wait(timeout: .now() + 5) == .success
        release.signal()
        if !finished { done.wait() }
        return (finished, result.locked { $0 })
    }

    static func holdingMain(_ store: SQLiteStateStore) -> @Sendable (@Sendable () -> Void) -> Void {
        { inside in _ = try? store.withConnection { _ in inside() } }
    }

    static func holdingReader(_ store: SQLiteStateStore) -> @Sendable (@Sendable () -> Void) -> Void {
        { inside in _ = try? store.withReadConnection { _ in inside() } }
    }

    static let since = Date(millisecondsSince1970: 0)

    static func ledger(_ dir: String) throws -> SQLiteStateStore {
        let store = try SQLiteStateStore(stateDirectory: dir)
        try store.recordUsage([UsageLedgerStoreTests.row(.request, model: "p/light", input: 5, cost: 50),
                               UsageLedgerStoreTests.row(.request, model: "p/strong", input: 7, cost: 70, day: 1)])
        return store
    }

    @Test func reportsAndSumsDoNotWaitForALedgerBatch() async throws {
        try await withTemporaryDirectory { dir in
            let store = try Self.ledger(dir)
            let byModel = try await Self.finishesOffThePool(whileHolding: Self.holdingMain(store)) { try store.usageReport(since: Self.since, by: .model) }
            #expect(byModel.finished, "the report waited for the main connection")
            #expect(byModel.value?.map(\.key) == ["p/strong", "p/light"])
            let perDay = try await Self.finishesOffThePool(whileHolding: Self.holdingMain(store)) { try store.usageReportPerDay(since: Self.since, by: .token) }
            #expect(perDay.finished, "the report per day waited for the main connection")
            #expect(perDay.value?.count == 2)
            let sum = try await Self.finishesOffThePool(whileHolding: Self.holdingMain(store)) { try store.usageSummary(tokenId: nil, since: Self.since) }
            #expect(sum.finished, "the sum over the ledger's rows waited for the main connection")
            #expect(sum.value?.costMicrodollars == 120)
        }
    }

    @Test func lookupsAndBatchesDoNotWaitForAReport() async throws {
        try await withTemporaryDirectory { dir in
            let store = try Self.ledger(dir)
            _ = try store.usageReport(since: Self.since, by: .model)  // the read connection is open
            let token = ClientToken(id: "tok_1", name: "app", createdAt: Date(millisecondsSince1970: 1_700_000_000_000))
            let written = try await Self.finishesOffThePool(whileHolding: Self.holdingReader(store)) {
                try store.insertToken(token, hash: "h1")
                try store.recordUsage([UsageLedgerStoreTests.row(.request, model: "p/light", input: 1, cost: 10)])
                return try store.token(hash: "h1")?.token.id
            }
            #expect(written.finished, "a token write, a ledger batch or a lookup waited for a report")
            #expect(written.value == "tok_1")
        }
    }

    /// Each long read sees every transaction committed before it, not the state of an earlier read.
    @Test func eachReportSeesWhatWasCommittedBeforeIt() throws {
        try withTemporaryDirectory { dir in
            let store = try Self.ledger(dir)
            #expect(try store.usageSummary(tokenId: nil, since: Self.since).costMicrodollars == 120)
            #expect(try store.usageReport(since: Self.since, by: .model).count == 2)
            try store.recordUsage([UsageLedgerStoreTests.row(.request, model: "p/other", input: 1, cost: 5)])
            #expect(try store.usageSummary(tokenId: nil, since: Self.since).costMicrodollars == 125)
            #expect(try store.usageReport(since: Self.since, by: .model).map(\.key) == ["p/strong", "p/light", "p/other"])
            #expect(try store.usageReportPerDay(since: Self.since, by: .model).count == 3)
        }
    }

    /// When the read connection cannot be opened (here the files were removed under the running store), the reads run
    /// on the main connection as before, rather than failing.
    @Test func aReadConnectionThatCannotBeOpenedFallsBackToTheMainOne() throws {
        try withTemporaryDirectory { dir in
            let store = try Self.ledger(dir)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
            #expect(try store.usageReport(since: Self.since, by: .model).map(\.key) == ["p/strong", "p/light"])
            #expect(try store.usageSummary(tokenId: nil, since: Self.since).costMicrodollars == 120)
        }
    }

    @Test func theReadConnectionCannotWrite() throws {
        try withTemporaryDirectory { dir in
            let store = try Self.ledger(dir)
            #expect(throws: SQLiteError.self) { try store.withReadConnection { try $0.execute("DELETE FROM usage_records") } }
            #expect(try store.usageReport(since: Self.since, by: .model).count == 2)
        }
    }
}
