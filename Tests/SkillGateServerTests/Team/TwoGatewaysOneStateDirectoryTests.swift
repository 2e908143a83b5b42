import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// Two gateways on one state directory (SQLite; `reuse_port`, or two ports): each reads the shared ledger again every
/// second, and before judging a request after two seconds without a read, so a budget spent through one stops the other
/// (decision 0105). Before, each read the ledger once per token and allowed the whole budget itself.
@Suite(.serialized) struct TwoGatewaysOneStateDirectoryTests {
    static let chat = #"{"model":"light","messages":[{"role":"user","content":"Hello there"}]}"#

    @Test func aBudgetSpentThroughOneStopsTheOther() async throws {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("sg-shared-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: shared) }
        // Each demo answer costs about $0.01 at the harness's prices.
        let a = try TeamHarness(tokenLimits: TokenLimits(budgetUSDPerDay: 0.03), start: nil, stateDirectory: shared)
        let b = try TeamHarness(start: nil, existingToken: a.token, stateDirectory: shared)
        // B has seen the token, and read its spend, before A spends.
        let first = try await b.post("/v1/chat/completions", Self.chat)
        var onA: [Int] = []
        for _ in 0..<10 { onA.append(try await a.post("/v1/chat/completions", Self.chat).status) }
        await a.server.flushLedger()
        await b.server.flushLedger()
        try await Task.sleep(for: .milliseconds(2100))  // past twice the re-read interval: B reads before it judges
        let onB = try await b.post("/v1/chat/completions", Self.chat)
        await a.stop()
        await b.stop()
        #expect(first.status == 200)
        #expect(onA.contains(429))
        #expect(onB.status == 429, "B allowed its own whole budget on top of what A spent")
        #expect(String(decoding: onB.body, as: UTF8.self).contains("daily budget"))
    }
}
