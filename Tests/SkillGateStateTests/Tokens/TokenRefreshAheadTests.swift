import Foundation
import SkillGateTestSupport
import Synchronization
import Testing
@testable import SkillGateState

/// A token in use is looked up again in the background before its cache entry expires, so a busy token never makes a
/// request wait on the store, and a revocation elsewhere still shows within the cache lifetime.
@Suite struct TokenRefreshAheadTests {
    /// A SQLite store whose token lookups are counted and, when `slow` is set, take `delay` seconds (a database behind
    /// a busy connection).
    final class SlowLookups: ForwardingStateStore {
        let base: SQLiteStateStore
        let lookups = Mutex(0)
        let slow = Mutex(false)
        let delay: TimeInterval = 1.5
        init(_ base: SQLiteStateStore) { self.base = base }
        func token(hash: String) throws -> StoredClientToken? {
            lookups.locked { $0 += 1 }
            if slow.locked({ $0 }) { usleep(UInt32(delay * 1_000_000)) }
            return try base.token(hash: hash)
        }
    }

    @Test func aTokenInUseIsLookedUpAheadOffTheRequestPath() async throws {
        try await withTemporaryDirectory { dir in
            let clock = TestClock()
            let store = SlowLookups(try SQLiteStateStore(stateDirectory: dir))
            let service = TokenService(store: store, cacheLifetime: .seconds(30), now: { clock.now })
            let (token, _) = try service.create(name: "ios-app")
            #expect(service.authenticate(token) != nil)
            #expect(store.lookups.locked { $0 } == 1)
            clock.advance(seconds: 10)
            #expect(service.authenticate(token) != nil)
            await service.waitForRefreshes()
            #expect(store.lookups.locked { $0 } == 1, "a young entry is not looked up again")

            // Past half its life: answered from the cache at once while one lookup runs behind, however slow.
            clock.advance(seconds: 6)
            store.slow.locked { $0 = true }
            let started = Date()
            for _ in 0..<5 { #expect(service.authenticate(token) != nil) }
            #expect(Date().timeIntervalSince(started) < store.delay / 2, "no request waited for the store")
            await service.waitForRefreshes()
            store.slow.locked { $0 = false }
            #expect(store.lookups.locked { $0 } == 2, "one lookup for the five requests")

            // The renewed entry carries the token past the first entry's expiry without a lookup on the request path.
            clock.advance(seconds: 20)  // 36 s after the first lookup, 20 s after the renewal
            #expect(service.authenticate(token) != nil)
            #expect(store.lookups.locked { $0 } <= 3)
        }
    }

    @Test func aRevocationElsewhereStillShowsWithinTheCacheLifetime() async throws {
        try await withTemporaryDirectory { dir in
            let clock = TestClock()
            let server = TokenService(store: try SQLiteStateStore(stateDirectory: dir), cacheLifetime: .seconds(30), now: { clock.now })
            let cli = TokenService(store: try SQLiteStateStore(stateDirectory: dir), now: { clock.now })
            let (token, _) = try cli.create(name: "ios-app")
            #expect(server.authenticate(token) != nil)
            clock.advance(seconds: 16)
            try cli.revoke(name: "ios-app")
            #expect(server.authenticate(token) != nil, "served from the cache while the lookup runs")
            await server.waitForRefreshes()
            #expect(server.authenticate(token) == nil, "the lookup ahead found the revocation")
        }
    }
}
