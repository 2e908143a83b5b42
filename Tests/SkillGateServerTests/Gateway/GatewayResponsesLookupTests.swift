import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// A `previous_response_id` is looked up in the state database off the event loops (decision 0085): while the database
/// is busy (here its one connection held, as a long ledger batch holds it), the request that continues a stored
/// response waits alone, and the requests of other connections on every loop are answered meanwhile.
@Suite(.serialized) struct GatewayResponsesLookupTests {
    typealias Harness = GatewayLoopbackTests.Harness

    @Test func aStoredResponseReadWaitsAloneForTheDatabase() async throws {
        let h = try Harness()
        let token = h.token
        let first = try await h.post("/v1/responses", #"{"model":"light","input":"What time is it?","store":true}"#)
        #expect(first.status == 200)
        let id = try #require(try JSONValue.parse(first.body)["id"]?.stringValue)
        await h.server.services.responses.flushOffThePool()  // in the database now, no longer pending in memory
        let body = #"{"model":"light","input":"And tomorrow?","store":false,"previous_response_id":"\#(id)"}"#
        let continued = "POST /v1/responses HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let run = try await HeldDatabaseRun.run(h.server, token: token, waiting: continued)
        await h.stop()
        #expect(run.answers.count == 8 && run.answers.allSatisfy { $0.status == 200 }, "\(run.answers)")
        #expect(run.slowest < 1.5, "a request waited \(run.slowest) s behind another request's stored-response lookup")
        #expect(run.waitingStatus == 200, "the continued response is answered once the database answers")
    }
}
