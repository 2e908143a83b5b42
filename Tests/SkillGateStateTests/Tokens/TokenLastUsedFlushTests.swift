import Dispatch
import Foundation
import SkillGateTestSupport
import Synchronization
import Testing
@testable import SkillGateState

/// `flushLastUsed()` (called at shutdown and by tests) returns only once the queued last-used times are in the store,
/// also when a background flush had already taken them off the queue and was still writing.
@Suite struct TokenLastUsedFlushTests {
    /// A SQLite store whose first `markTokensUsed` signals `entered` and then waits for `release`.
    final class GatedLastUsedWrites: StateStore {
        let base: SQLiteStateStore
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = Mutex(0)
        init(_ base: SQLiteStateStore) { self.base = base }
        func markTokensUsed(_ uses: [String: Date]) throws {
            if calls.withLock({ $0 += 1; return $0 }) == 1 {
                entered.signal()
                release.wait()
            }
            try base.markTokensUsed(uses)
        }
        func token(hash: String) throws -> StoredClientToken? { try base.token(hash: hash) }
        func insertToken(_ token: ClientToken, hash: String) throws { try base.insertToken(token, hash: hash) }
        func tokens() throws -> [ClientToken] { try base.tokens() }
        func revokeToken(named name: String, at date: Date) throws -> ClientToken? { try base.revokeToken(named: name, at: date) }
        func updateTokenLimits(named name: String, _ limits: TokenLimits) throws -> ClientToken? { try base.updateTokenLimits(named: name, limits) }
        func recordUsage(_ record: UsageRecord) throws { try base.recordUsage(record) }
        func recordUsage(_ records: [UsageRecord]) throws { try base.recordUsage(records) }
        func usageSummary(tokenId: String?, since: Date) throws -> UsageSummary { try base.usageSummary(tokenId: tokenId, since: since) }
        func usageSummary(scenario: String, since: Date) throws -> UsageSummary { try base.usageSummary(scenario: scenario, since: since) }
        func usageReport(since: Date, by grouping: UsageGrouping) throws -> [UsageReportRow] { try base.usageReport(since: since, by: grouping) }
        func usageReportPerDay(since: Date, by grouping: UsageGrouping) throws -> [UsageDayRow] { try base.usageReportPerDay(since: since, by: grouping) }
    }

    @Test func anExplicitFlushWaitsForTheBackgroundFlushInFlight() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let store = GatedLastUsedWrites(try SQLiteStateStore(stateDirectory: dir))
            let service = TokenService(store: store, now: { clock.now })
            let (token, _) = try service.create(name: "ios-app")
            let usedAt = clock.now
            #expect(service.authenticate(token) != nil)   // queues the time and starts a background flush
            #expect(store.entered.wait(timeout: .now() + 30) == .success, "the background flush never wrote")

            // The background flush holds the queued time; an explicit flush must not return before it is written.
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                try? service.flushLastUsed()
                done.signal()
            }
            let returnedEarly = done.wait(timeout: .now() + 0.3) == .success
            #expect(!returnedEarly, "flushLastUsed returned while the write was still in flight")
            store.release.signal()
            if !returnedEarly { #expect(done.wait(timeout: .now() + 30) == .success) }
            #expect(try service.list().first?.lastUsedAt == usedAt)
        }
    }
}
