import Foundation
import Synchronization
import Testing
import SkillGateHTTP
import SkillGateKeys
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// The head gate's store lookups (decisions 0077, 0079): a token known to the store is looked up on its own queue, so
/// a flood of made-up tokens queued ahead does not delay a client back after a pause or a restart.
@Suite struct HeadGateLookupOrderTests {
    /// A SQLite store whose token lookups take `delay` each, one at a time (a database behind one connection).
    final class SlowStore: ForwardingStateStore {
        let base: SQLiteStateStore
        /// Lookups made, one at a time (a counter rather than `()`: decision 0165).
        let connection = Mutex(0)
        let delay: TimeInterval
        init(_ base: SQLiteStateStore, delay: TimeInterval) {
            self.base = base
            self.delay = delay
        }
        func token(hash: String) throws -> StoredClientToken? {
            try connection.locked { lookups in
                lookups += 1
                Thread.sleep(forTimeInterval: delay)
                return try base.token(hash: hash)
            }
        }
    }

    static func head(_ token: String) -> HTTPRequestHead {
        HTTPRequestHead(method: "POST", path: "/v1/chat/completions", headers: ["authorization": "Bearer \(token)"])
    }

    /// The decisions that came, by name, with when each came.
    final class Arrivals: Sendable {
        private let decisions = Mutex<[String: (HTTPHeadDecision, Date)]>([:])
        subscript(name: String) -> (HTTPHeadDecision, Date)? { decisions.locked { $0[name] } }

        /// Starts `decision` (made at once or later) and notes when it comes, under `name`.
        func start(_ decision: HTTPHeadDecision, as name: String) {
            guard case .decideLater(let deferred) = decision else {
                decisions.locked { $0[name] = (decision, Date()) }
                return
            }
            deferred.start { decided in self.decisions.locked { $0[name] = (decided, Date()) } }
        }

        /// Waits (at most 10 s) for the decision named `name`.
        func wait(for name: String) async throws -> (HTTPHeadDecision, Date)? {
            let deadline = Date().addingTimeInterval(10)
            while self[name] == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            return self[name]
        }
    }

    @Test func aReturningClientIsNotQueuedBehindMadeUpTokens() async throws {
        try await withTemporaryDirectory { dir in
            let store = SlowStore(try SQLiteStateStore(stateDirectory: dir), delay: 0.05)
            let now = Mutex(Date())
            let tokens = TokenService(store: store, cacheLifetime: .seconds(2), now: { now.locked { $0 } })
            let (token, _) = try tokens.create(name: "ios-app")
            let gate = HeadGate(authentication: AuthenticateStage(tokens: tokens), log: RequestLog(fd: -1, enabled: false))
            let arrived = Arrivals()

            // The client's first request: looked up once (never accepted before), then cached.
            arrived.start(gate.decide(Self.head(token)), as: "first")
            guard case .admit = try await arrived.wait(for: "first")?.0 else {
                Issue.record("the first request was not admitted")
                return
            }
            // The client pauses past the cache's lifetime; meanwhile 20 made-up tokens queue 1 s of lookups.
            now.locked { $0 = $0.addingTimeInterval(3) }
            try await Self.expectNotQueuedBehindMadeUpTokens(token, gate: gate, arrived: arrived)
        }
    }

    /// Right after a restart no token has been accepted yet: the tokens active in the store are known from the start
    /// (decision 0079), so a client's first request is not queued behind made-up tokens either.
    @Test func afterARestartAClientIsNotQueuedBehindMadeUpTokens() async throws {
        try await withTemporaryDirectory { dir in
            let token = try TokenService(store: try SQLiteStateStore(stateDirectory: dir)).create(name: "ios-app").token
            // The restarted gateway's service, over the same database.
            let tokens = TokenService(store: SlowStore(try SQLiteStateStore(stateDirectory: dir), delay: 0.05), cacheLifetime: .seconds(2))
            try tokens.learnActiveTokens()
            let gate = HeadGate(authentication: AuthenticateStage(tokens: tokens), log: RequestLog(fd: -1, enabled: false))
            try await Self.expectNotQueuedBehindMadeUpTokens(token, gate: gate, arrived: Arrivals())
        }
    }

    /// A token created elsewhere while the gateway runs is listed by `learnNewTokens` (decision 0088; the gateway does
    /// it every two seconds), so its first request is not queued behind made-up tokens either.
    @Test func aTokenCreatedElsewhereAfterTheStartIsNotQueuedBehindMadeUpTokens() async throws {
        try await withTemporaryDirectory { dir in
            let tokens = TokenService(store: SlowStore(try SQLiteStateStore(stateDirectory: dir), delay: 0.05), cacheLifetime: .seconds(2))
            try tokens.learnActiveTokens()
            let token = try TokenService(store: try SQLiteStateStore(stateDirectory: dir)).create(name: "ios-app").token
            try tokens.learnNewTokens()
            let gate = HeadGate(authentication: AuthenticateStage(tokens: tokens), log: RequestLog(fd: -1, enabled: false))
            try await Self.expectNotQueuedBehindMadeUpTokens(token, gate: gate, arrived: Arrivals())
        }
    }

    /// Queues the lookups of 20 made-up tokens (1 s in all), then `token`'s; expects `token` admitted in under 0.5 s
    /// (on the queue of known tokens), before the made-up ones are all looked up.
    static func expectNotQueuedBehindMadeUpTokens(_ token: String, gate: HeadGate, arrived: Arrivals) async throws {
        for i in 0..<20 {
            let madeUp = "sgk_" + String(repeating: "C", count: TokenFormat.length - 6) + String(format: "%02d", i)
            arrived.start(gate.decide(Self.head(madeUp)), as: "made-up \(i)")
        }
        let sent = Date()
        arrived.start(gate.decide(Self.head(token)), as: "known")
        let known = try #require(try await arrived.wait(for: "known"))
        guard case .admit = known.0 else {
            Issue.record("the known client was not admitted")
            return
        }
        let waited = known.1.timeIntervalSince(sent)
        // Behind the made-up ones it would wait ~1 s; on its own queue, at most one lookup in flight and its own.
        #expect(waited < 0.5, "the known client's lookup waited \(waited) s behind made-up tokens")
        let madeUpBefore = (0..<20).filter { i in arrived["made-up \(i)"].map { $0.1 < known.1 } ?? false }.count
        #expect(madeUpBefore < 20, "the made-up tokens' lookups had all finished first")
    }
}
