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
    final class GatedLastUsedWrites: ForwardingStateStore {
        let base: SQLiteStateStore
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = Mutex(0)
        init(_ base: SQLiteStateStore) { self.base = base }
        func markTokensUsed(_ uses: [String: Date]) throws {
            if calls.locked({ $0 += 1; return $0 }) == 1 {
                entered.signal()
                release.wait()
            }
            try base.markTokensUsed(uses)
        }
    }

    @Test func anExplicitFlushWaitsForTheBackgroundFlushInFlight() async throws {
        try await withTemporaryDirectory { dir in
            let clock = TestClock()
            let store = GatedLastUsedWrites(try SQLiteStateStore(stateDirectory: dir))
            let service = TokenService(store: store, now: { clock.now })
            let (token, _) = try service.create(name: "ios-app")
            let usedAt = clock.now
            #expect(service.authenticate(token) != nil)   // queues the time and starts a background flush
            // The waits below run on a thread of their own (`offThePool`): the background flush runs on a
            // background-QoS queue, and the explicit flush must be seen waiting for 0.3 s, neither on a thread of
            // the shared task pool.
            let entered = try await offThePool { store.entered.wait(timeout: .now() + 30) == .success }
            #expect(entered, "the background flush never wrote")

            // The background flush holds the queued time; an explicit flush must not return before it is written.
            let (returnedEarly, returned) = try await offThePool { () -> (Bool, Bool) in
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    try? service.flushLastUsed()
                    done.signal()
                }
                let returnedEarly = done.wait(timeout: .now() + 0.3) == .success
                store.release.signal()
                return (returnedEarly, returnedEarly || done.wait(timeout: .now() + 30) == .success)
            }
            #expect(!returnedEarly, "flushLastUsed returned while the write was still in flight")
            #expect(returned)
            #expect(try service.list().first?.lastUsedAt == usedAt)
            // One write: the background flush's. The explicit flush waited for it and found nothing left to write.
            #expect(service.lastUsedFlushesWritten == 1)
        }
    }
}
