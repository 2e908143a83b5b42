import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// A token's first request in a process reads its limit counts from the ledger off the event loops (decision 0086):
/// while the database is busy (its one connection held, as a long ledger batch holds it), that request waits alone,
/// and the requests of other connections on every loop are answered meanwhile.
@Suite(.serialized) struct LimitsFirstReadGatewayTests {
    @Test func aTokensFirstLimitReadWaitsAloneForTheDatabase() async throws {
        let h = try TeamHarness(tokenLimits: TokenLimits(requestsPerMinute: 1000))
        let body = #"{"model":"light","messages":[{"role":"user","content":"Hello"}]}"#
        let chat = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(h.token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        // The token's first chat request: `/v1/models` (below, to cache the token) admits nothing.
        let run = try await HeldDatabaseRun.run(h.server, token: h.token, waiting: chat)
        let limits = try await h.get("/v1/limits")
        await h.stop()
        #expect(run.answers.count == 8 && run.answers.allSatisfy { $0.status == 200 }, "\(run.answers)")
        #expect(run.slowest < 1.5, "a request waited \(run.slowest) s behind another token's first limit read")
        #expect(run.waitingStatus == 200, "the first request is answered once the database answers")
        let used = try JSONValue.parse(limits.body)["data"]?.arrayValue?.first?["used"]?.intValue
        #expect(used == 1, "the first request was counted once: \(String(decoding: limits.body, as: UTF8.self))")
    }
}
