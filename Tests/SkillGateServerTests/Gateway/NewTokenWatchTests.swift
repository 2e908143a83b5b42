import Foundation
import Synchronization
import Testing
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// The running gateway's listing of tokens created elsewhere (decision 0088): tokens become known without a request,
/// and a store that cannot be read is told once when it starts failing and once when it works again.
@Suite struct NewTokenWatchTests {
    /// A SQLite store whose token listings fail while `failing` is set.
    final class FlakyStore: ForwardingStateStore {
        let base: SQLiteStateStore
        let failing = Mutex(false)
        let listings = Mutex(0)
        init(_ base: SQLiteStateStore) { self.base = base }
        struct Down: Error, CustomStringConvertible { var description: String { "the database is down" } }
        func activeTokenHashes(createdSince since: Date, limit: Int) throws -> [CreatedTokenHash] {
            listings.locked { $0 += 1 }
            if failing.locked({ $0 }) { throw Down() }
            return try base.activeTokenHashes(createdSince: since, limit: limit)
        }
    }

    /// Collects what the watch reports.
    final class Reports: Sendable {
        let lines = Mutex<[(String, String)]>([])
        var all: [(String, String)] { lines.locked { $0 } }
        func note(_ message: String, _ level: String) { lines.locked { $0.append((message, level)) } }
    }

    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(5)
        while !condition(), Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }

    static func isKnown(_ token: String, by tokens: TokenService) -> Bool {
        if case .notCached(known: true) = tokens.cachedGrant(for: token) { return true }
        return false
    }

    @Test func aTokenCreatedElsewhereBecomesKnownWithoutARequest() async throws {
        try await withTemporaryDirectory { dir in
            let tokens = TokenService(store: try SQLiteStateStore(stateDirectory: dir))
            try tokens.learnActiveTokens()
            let reports = Reports()
            let watch = NewTokenWatch(tokens: tokens, interval: .milliseconds(20), report: reports.note)
            watch.start()
            defer { watch.stop() }
            let created = try TokenService(store: try SQLiteStateStore(stateDirectory: dir)).create(name: "ios-app").token
            try await Self.waitUntil { Self.isKnown(created, by: tokens) }
            #expect(Self.isKnown(created, by: tokens))
            #expect(reports.all.isEmpty, "listings that work report nothing")
        }
    }

    @Test func aFailingStoreIsToldOnceAndItsRecoveryOnce() async throws {
        try await withTemporaryDirectory { dir in
            let store = FlakyStore(try SQLiteStateStore(stateDirectory: dir))
            let tokens = TokenService(store: store)
            try tokens.learnActiveTokens()
            store.failing.locked { $0 = true }
            let reports = Reports()
            let watch = NewTokenWatch(tokens: tokens, interval: .milliseconds(10), report: reports.note)
            watch.start()
            defer { watch.stop() }
            try await Self.waitUntil { store.listings.locked { $0 } >= 5 }
            #expect(reports.all.map(\.1) == ["warn"], "five failing listings, one report")
            #expect(reports.all.first?.0.contains("the database is down") == true)
            #expect(reports.all.first?.0.contains("Check the state database") == true)
            let created = try TokenService(store: try SQLiteStateStore(stateDirectory: dir)).create(name: "ios-app").token
            store.failing.locked { $0 = false }
            try await Self.waitUntil { Self.isKnown(created, by: tokens) }
            #expect(Self.isKnown(created, by: tokens), "the first listing that works learns what was created meanwhile")
            let listed = store.listings.locked { $0 }
            try await Self.waitUntil { store.listings.locked { $0 } >= listed + 3 }
            #expect(reports.all.map(\.1) == ["warn", "info"], "the recovery is told once")
        }
    }

    @Test func stoppedItListsNoMore() async throws {
        try await withTemporaryDirectory { dir in
            let store = FlakyStore(try SQLiteStateStore(stateDirectory: dir))
            let tokens = TokenService(store: store)
            try tokens.learnActiveTokens()
            let watch = NewTokenWatch(tokens: tokens, interval: .milliseconds(10), report: { _, _ in })
            watch.start()
            try await Self.waitUntil { store.listings.locked { $0 } >= 2 }
            watch.stop()
            try await Task.sleep(for: .milliseconds(30))
            let stopped = store.listings.locked { $0 }
            try await Task.sleep(for: .milliseconds(100))
            #expect(store.listings.locked { $0 } == stopped)
        }
    }
}
