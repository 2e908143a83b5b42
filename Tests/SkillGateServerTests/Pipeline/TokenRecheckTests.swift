import Foundation
import Testing
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// A running answer's token re-check never reads the store on the caller's event loop (decision 0086): when the cache
/// cannot tell (its entry expired while the store was held past the cache's lifetime), the check awaits the store
/// off the loop, and the loop's other work goes on meanwhile.
@Suite struct TokenRecheckTests {
    @Test func aCheckTheCacheCannotAnswerWaitsOffTheCallersThread() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-recheck-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let clock = ManualWallClock(Date())
        let tokens = TokenService(store: store, cacheLifetime: .seconds(2), now: { clock.now })
        let (token, _) = try tokens.create(name: "app")
        let recheck = TokenRecheck(tokens: tokens, grant: try #require(tokens.grant(for: token)), interval: .zero)
        clock.advance(3)  // the cache entry expired: only the store can tell
        store.holdConnection(for: 1)

        // A thread of its own stands in for the event loop: the check, then another connection's work, queued there.
        let (waited, valid) = await onOwnThread("test-loop") { () async -> (Duration, Bool) in
            async let checked: Bool = { () async -> Bool in
                do { try await recheck.checkIfDue(); return true } catch { return false }
            }()
            let queued = ContinuousClock.now
            async let ran = ContinuousClock.now  // a child task too: queued on the same thread, after the check
            return (await ran - queued, await checked)
        }
        #expect(waited < .milliseconds(500), "the loop's other work waited \(waited) behind a token re-check")
        #expect(valid, "the token is still valid once the store answers")
    }
}
