import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// A gateway stopped while its state store could not take the usage ledger's records keeps them in
/// `<state_dir>/ledger-spool/`, and the next gateway on that state writes them (decision 0149): the requests count in
/// the reports and budgets once, not never.
@Suite struct LedgerSpoolGatewayTests {
    static let chat = #"{"model":"light","messages":[{"role":"user","content":"Hello there"}]}"#

    @Test func aGatewayStoppedWithItsStoreFailingHasItsUsageWrittenByTheNextOne() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sg-spool-gw-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/state"
        let first = try TeamHarness(start: nil, stateDirectory: state)
        let store = try #require(first.server.services.tokens.store as? SQLiteStateStore)
        // Every ledger write fails from now on, as on a full disk.
        _ = try store.withConnection { db in try db.execute("ALTER TABLE usage_records RENAME TO usage_records_away") }
        var statuses: [Int] = []
        for _ in 0..<3 { statuses.append(try await first.post("/v1/chat/completions", Self.chat).status) }
        await first.stop()
        let spooled = (try? FileManager.default.contentsOfDirectory(atPath: state + "/ledger-spool")) ?? []

        _ = try store.withConnection { db in try db.execute("ALTER TABLE usage_records_away RENAME TO usage_records") }
        let next = try TeamHarness(start: nil, existingToken: first.token, stateDirectory: state)
        var requests = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while requests < 3 && ContinuousClock.now < deadline {
            requests = try await next.ledger().first?.requests ?? 0
            if requests < 3 { try await Task.sleep(for: .milliseconds(50)) }
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: state + "/ledger-spool")) ?? []
        await next.stop()

        #expect(statuses == [200, 200, 200])
        #expect(spooled.count == 1, "the stop kept the three requests' records: \(spooled)")
        #expect(requests == 3, "the next gateway wrote them")
        #expect(left.isEmpty, "and removed the file: \(left)")
    }
}
