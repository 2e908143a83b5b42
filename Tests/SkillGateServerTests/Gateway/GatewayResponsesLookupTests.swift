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
        let port = h.server.boundPort
        let token = h.token
        let first = try await h.post("/v1/responses", #"{"model":"light","input":"What time is it?","store":true}"#)
        #expect(first.status == 200)
        let id = try #require(try JSONValue.parse(first.body)["id"]?.stringValue)
        h.server.services.responses.flush()  // in the database now, no longer pending in memory
        let store = try #require(h.server.services.tokens.store as? SQLiteStateStore)
        let sockets = try (0..<8).map { _ in try RawSocket(port: port, receiveTimeout: 10) }
        let body = #"{"model":"light","input":"And tomorrow?","store":false,"previous_response_id":"\#(id)"}"#
        let continued = "POST /v1/responses HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"

        // On a thread of its own: in the parallel suite the cooperative pool can be busy for seconds.
        let tokens = h.server.services.tokens
        let (answers, continuedStatus) = try await RawSocket.run { () throws -> ([(status: Int?, seconds: Double)], Int?) in
            // Every connection's token is cached (2 s), so only the continued response needs the database below.
            tokens.invalidateCache()
            let warmed = sockets.map { socket -> Int? in
                socket.send(RawSocket.modelsRequest(token))
                return socket.readOneResponse()
            }
            guard warmed.allSatisfy({ $0 == 200 }) else { return ([], nil) }
            // The database's one connection is held for 3 s.
            store.holdConnection(for: 3)
            let waiting = try RawSocket(port: port, receiveTimeout: 10)
            waiting.send(continued)
            Thread.sleep(forTimeInterval: 0.1)
            // Every other connection is answered while that lookup waits.
            let answers = RawSocket.timedModelsAnswers(sockets, token: token)
            return (answers, waiting.readOneResponse())
        }
        await h.stop()
        #expect(answers.count == 8 && answers.allSatisfy { $0.status == 200 }, "\(answers)")
        let slowest = answers.map(\.seconds).max() ?? 0
        #expect(slowest < 1.5, "a request waited \(slowest) s behind another request's stored-response lookup")
        #expect(continuedStatus == 200, "the continued response is answered once the database answers")
    }
}
