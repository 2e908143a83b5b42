import Foundation
import Synchronization
import Testing
import SkillGateCore
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// A running answer's token re-check never reads the store on the caller's event loop (decision 0086): when the cache
/// cannot tell (its entry expired while the store was held past the cache's lifetime), the check between agent steps
/// awaits the store off the loop, and the loop's other work goes on meanwhile; the check at each event asks the cache
/// only (decision 0142). A store that cannot be read stops nothing.
@Suite struct TokenRecheckTests {
    /// A SQLite store whose token lookups fail while `failing` is set (a database that is down).
    final class FailingLookups: ForwardingStateStore {
        let base: SQLiteStateStore
        let failing = Mutex(false)
        init(_ base: SQLiteStateStore) { self.base = base }
        struct Down: Error {}
        func token(hash: String) throws -> StoredClientToken? {
            if failing.locked({ $0 }) { throw Down() }
            return try base.token(hash: hash)
        }
    }

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sg-recheck-\(UUID().uuidString)").path
    }

    /// A token service on `store` with a 2 s cache on a clock the test moves, and the grant of a token `app` made there.
    static func tokenService(on store: some StateStore) throws -> (TokenService, ManualWallClock, TokenGrant) {
        let clock = ManualWallClock(Date())
        let tokens = TokenService(store: store, cacheLifetime: .seconds(2), now: { clock.now })
        let (token, _) = try tokens.create(name: "app")
        return (tokens, clock, try #require(tokens.grant(for: token)))
    }

    @Test func aCheckTheCacheCannotAnswerWaitsOffTheCallersThread() async throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let (tokens, clock, grant) = try Self.tokenService(on: store)
        let recheck = TokenRecheck(tokens: tokens, grant: grant, interval: .zero)
        clock.advance(3)  // the cache entry expired: only the store can tell
        store.holdConnection(for: 1)

        // A thread of its own stands in for the event loop: the check, then another connection's work, queued there.
        let (waited, valid) = await onOwnThread("test-loop") { () async -> (Duration, Bool) in
            async let checked: Bool = { () async -> Bool in
                do { try await recheck.check(); return true } catch { return false }
            }()
            let queued = ContinuousClock.now
            async let ran = ContinuousClock.now  // a child task too: queued on the same thread, after the check
            return (await ran - queued, await checked)
        }
        #expect(waited < .milliseconds(500), "the loop's other work waited \(waited) behind a token re-check")
        #expect(valid, "the token is still valid once the store answers")
    }

    /// The check at each event never waits on the store: with the cache expired and the store held for a second, it
    /// answers at once and stops nothing (the revocation sweep reads the store, off the request's path).
    @Test func theCheckAtEachEventAsksOnlyTheCache() async throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let (tokens, clock, grant) = try Self.tokenService(on: store)
        let recheck = TokenRecheck(tokens: tokens, grant: grant, interval: .zero)
        clock.advance(3)
        store.holdConnection(for: 1)
        let started = ContinuousClock.now
        try recheck.checkIfDue()
        let took = ContinuousClock.now - started
        #expect(took < .milliseconds(500), "the check waited \(took) on the store")

        // The revocation waits for the held connection: on a thread of its own, not one of the shared task pool's.
        _ = try await offThePool { try tokens.revoke(name: "app") }
        #expect(throws: GatewayError.self, "a revocation the cache holds is seen at the next event") { try recheck.checkIfDue() }
    }

    /// With the store down and the cache no longer vouching, neither check takes the store's silence for a revocation;
    /// once the store answers again, a revocation made meanwhile (by another process) is seen.
    @Test func aStoreThatCannotBeReadStopsNothing() async throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = FailingLookups(try SQLiteStateStore(stateDirectory: dir))
        let (tokens, clock, grant) = try Self.tokenService(on: store)
        let recheck = TokenRecheck(tokens: tokens, grant: grant, interval: .zero)
        store.failing.locked { $0 = true }
        clock.advance(3)
        #expect(tokens.standing(of: grant) == .unknown)
        #expect(!tokens.isStillValid(grant), "isStillValid still fails closed")
        try await recheck.check()
        try recheck.checkIfDue()

        _ = try TokenService(store: try SQLiteStateStore(stateDirectory: dir)).revoke(name: "app")
        store.failing.locked { $0 = false }
        #expect(tokens.standing(of: grant) == .revoked)
        await #expect(throws: GatewayError.self) { try await recheck.check() }
    }
}
