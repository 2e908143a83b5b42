import Foundation
import Testing
import Synchronization
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// `responses.max_mib_per_token` through the archive (decision 0119): the writer passes the bound to the store, a
/// dropped response's id is a 404 naming the setting, and the drops are reported at once, then at most once a minute.
@Suite struct ResponseArchiveBoundPerTokenTests {
    @Test func aTokensOldestResponsesAreDroppedPastItsBoundAndReported() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let warnings = Mutex<[String]>([])
        let one = ResponseArchiveTests.stored.count
        let archive = ResponseArchive(store: try SQLiteStateStore(stateDirectory: dir), retention: 1, maxBytesPerToken: 2 * one,
                                      flushInterval: .milliseconds(10), now: { Date() }) { w in warnings.locked { $0.append(w) } }
        for i in 0..<3 { archive.save(id: "resp_\(i)", tokenId: "tok_a", conversation: ResponseArchiveTests.stored) }
        archive.save(id: "resp_b", tokenId: "tok_b", conversation: ResponseArchiveTests.stored)
        await archive.flushOffThePool()
        for i in 3..<5 { archive.save(id: "resp_\(i)", tokenId: "tok_a", conversation: ResponseArchiveTests.stored) }
        await archive.flushOffThePool()

        // Three of tok_a's five were dropped, the oldest, however the writer's own writes (every 10 ms) split the saves
        // into batches: the two newest stay, and tok_b's one.
        for i in 3..<5 { _ = try await archive.conversation(id: "resp_\(i)", tokenId: "tok_a") }
        _ = try await archive.conversation(id: "resp_b", tokenId: "tok_b")
        var missing = 0
        for i in 0..<3 {
            do { _ = try await archive.conversation(id: "resp_\(i)", tokenId: "tok_a") } catch let error as GatewayError {
                missing += 1
                #expect(error.status == 404 && error.message.contains("responses.max_mib_per_token"), "\(error.message)")
            }
        }
        #expect(missing == 3)

        // Reported once: the first drop at once (one response, when the third of tok_a's was written), later ones held for
        // the minute.
        let seen = warnings.locked { $0 }
        #expect(seen.count == 1, "\(seen)")
        #expect(seen.first?.hasPrefix("1 stored responses of 1 token(s) (tok_a) were dropped, oldest first") == true, "\(seen)")
        await archive.closeOffThePool()
    }

    @Test func dropsAreReportedAtOnceThenAtMostOnceAMinuteWithWhatAccumulated() {
        var dropped = DroppedForBound()
        let t = ContinuousClock.now
        let mib = 8 << 20
        #expect(dropped.add([:], bound: mib, at: t) == nil)
        let first = dropped.add(["tok_a": 2], bound: mib, at: t)
        #expect(first?.hasPrefix("2 stored responses of 1 token(s) (tok_a) were dropped, oldest first, to keep each token's within responses.max_mib_per_token (8 MiB)") == true, "\(first ?? "nil")")
        #expect(dropped.add(["tok_b": 1], bound: mib, at: t + .seconds(30)) == nil)
        #expect(dropped.add(["tok_a": 4], bound: mib, at: t + .seconds(59)) == nil)
        let next = dropped.add([:], bound: mib, at: t + .seconds(60))
        #expect(next?.hasPrefix("5 stored responses of 2 token(s) (tok_a, tok_b) were dropped") == true, "\(next ?? "nil")")
        #expect(dropped.add([:], bound: mib, at: t + .seconds(200)) == nil, "nothing new, nothing said")
        let many = Dictionary(uniqueKeysWithValues: (0..<7).map { ("tok_\($0)", 1) })
        #expect(dropped.add(many, bound: mib, at: t + .seconds(201))?.contains("(tok_0, tok_1, tok_2, tok_3, tok_4, …)") == true)
    }
}
