import Foundation
import Testing
import SkillGateCore
import SkillGateKeys
import SkillGateTestSupport
@testable import SkillGateState

/// A database that hangs rather than refuses — a frozen server, a failover whose old address swallows packets, a
/// partition — holds no statement past the store's answer timeout (decision 0163). The statement fails with a message
/// saying so; the connection is dropped and made again at the next statement, which, while the server still hangs,
/// fails at its connect timeout; the statements right after a failed attempt fail at once; and once the server
/// answers again, so does the store. Before, `PQexec` waited as long as the socket stayed open, and every token
/// lookup and ledger batch queued behind the store's lock waited with it.
///
/// The hop holds every byte while stalled (`PostgresCommitInterceptor.stall`), and lets them go after `release` even
/// if the store never gives up, so a store without the bound fails these tests rather than hanging them.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PostgresHungServerTests {
    /// When the stalled hop goes on by itself.
    static let release: Duration = .seconds(20)

    @Test func aTokenLookupTheServerDoesNotAnswerFailsAtTheAnswerTimeout() async throws {
        // Observed off the pool, judged here, so a failure is credited to this test.
        let seen = try await offThePool {
            try Self.withStalledStore { store, hop -> [(String, Duration)] in
                let hash = try TokenFormat.hash(TokenService(store: store).create(name: "app").token)
                hop.stall(true)
                Self.goOnAfterRelease(hop)
                let first = Self.timed { try store.token(hash: hash) }
                // The connection is made again; the server still hangs, so that attempt ends at its connect timeout.
                let second = Self.timed { try store.token(hash: hash) }
                // Right after a failed attempt: at once, without another.
                let third = Self.timed { try store.token(hash: hash) }
                hop.stall(false)
                let recovered = Self.eventually { (try? store.token(hash: hash))?.token.name == "app" }
                return [first, second, third, (recovered ? "recovered" : "not recovered", .zero)]
            }
        }
        #expect(seen[0].1 < .seconds(6), "the first lookup waited \(seen[0].1)")
        #expect(seen[0].0.contains("did not answer within 2 s"), "\(seen[0].0)")
        #expect(seen[1].0.contains("could not be made again"), "\(seen[1].0)")
        #expect(seen[2].1 < .milliseconds(500), "a lookup right after a failed attempt waited \(seen[2].1)")
        #expect(seen[2].0.contains("could not be made again"), "\(seen[2].0)")
        #expect(seen[3].0 == "recovered", "the store answers again once the server does")
    }

    /// A ledger batch (a transaction with a COPY) on a server that hangs fails within the bound, and the same records
    /// written again once the server is back are counted once.
    @Test func aLedgerBatchTheServerDoesNotAnswerFailsAndIsWrittenOnceLater() async throws {
        let (failure, took, written, cost) = try await offThePool {
            try Self.withStalledStore { store, hop -> (String, Duration, Bool, Int64) in
                let batch = [UsageLedgerStoreTests.row(.request, model: "p/light", input: 5, cost: 50)]
                hop.stall(true)
                Self.goOnAfterRelease(hop)
                let (failure, took) = Self.timed { try store.recordUsage(batch) }
                hop.stall(false)
                let written = Self.eventually { (try? store.recordUsage(batch)) != nil }
                let cost = try store.usageSummary(tokenId: nil, since: Date(millisecondsSince1970: 0)).costMicrodollars
                return (failure, took, written, cost)
            }
        }
        #expect(took < .seconds(6), "the batch waited \(took)")
        #expect(failure.contains("did not answer within 2 s"), "\(failure)")
        #expect(written, "the batch is written once the server answers")
        #expect(cost == 50, "the batch was counted once")
    }

    /// A store on a fresh test database behind a hop, with a 2 s answer timeout.
    static func withStalledStore<T>(_ body: (PostgresStateStore, PostgresCommitInterceptor) throws -> T) throws -> T {
        let db = try PostgresTestDatabase()
        defer { db.drop() }
        let hop = try PostgresCommitInterceptor(upstreamPort: UInt16(try #require(URLComponents(string: db.url)?.port)))
        defer {
            hop.stall(false)
            hop.stop()
        }
        // Migrated directly first, so the store's own start through the hop runs only a few short statements.
        _ = try PostgresStateStore(url: db.url)
        return try body(try PostgresStateStore(url: hop.url(through: db.url), answerTimeout: .seconds(2)), hop)
    }

    /// Lets the hop go on after `release`, whatever the test does meanwhile.
    static func goOnAfterRelease(_ hop: PostgresCommitInterceptor) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: Double(release.components.seconds))
            hop.stall(false)
        }
    }

    /// What `body` threw (its description; "no error" when it returned) and how long it took.
    static func timed(_ body: () throws -> Any?) -> (String, Duration) {
        let started = ContinuousClock.now
        let outcome: String
        do {
            _ = try body()
            outcome = "no error"
        } catch {
            outcome = "\(error)"
        }
        return (outcome, ContinuousClock.now - started)
    }

    /// Whether `condition` holds within 10 s, tried every 100 ms.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }
}
