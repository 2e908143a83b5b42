import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// A request admitted at its head is looked up again when its handler runs; when the head's cache entry expired
/// meanwhile (here a body sent 2.2 s after its head, with the database held), that lookup reads the store off the
/// event loop (decision 0086): the request waits alone, and other connections on every loop are answered meanwhile.
@Suite(.serialized) struct AdmittedTokenRecacheTests {
    typealias Harness = GatewayLoopbackTests.Harness

    @Test func aBodyThatOutlivedItsHeadsCacheEntryWaitsAloneForTheDatabase() async throws {
        let h = try Harness()
        let port = h.server.boundPort
        let token = h.token
        let store = try #require(h.server.services.tokens.store as? SQLiteStateStore)
        let body = #"{"model":"light","messages":[{"role":"user","content":"Hello"}]}"#
        let head = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        let sockets = try (0..<8).map { _ in try RawSocket(port: port, receiveTimeout: 10) }
        let tokens = h.server.services.tokens
        let (answers, slowStatus) = try await RawSocket.run { () throws -> ([(status: Int?, seconds: Double)], Int?) in
            // The token cached now (2 s); the slow request's head is admitted from that entry.
            tokens.invalidateCache()
            sockets[0].send(RawSocket.modelsRequest(token))
            guard sockets[0].readOneResponse() == 200 else { return ([], nil) }
            let slow = try RawSocket(port: port, receiveTimeout: 10)
            slow.send(head)
            Thread.sleep(forTimeInterval: 2.2)   // the entry expired; nothing looked the token up since
            store.holdConnection(for: 2)
            slow.send(body)
            Thread.sleep(forTimeInterval: 0.1)
            // `/healthz` needs no token: what delays it is a loop held by another request.
            let answers = sockets.map { socket -> (status: Int?, seconds: Double) in
                let begin = Date()
                socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                return (socket.readOneResponse(), Date().timeIntervalSince(begin))
            }
            return (answers, slow.readOneResponse())
        }
        await h.stop()
        #expect(answers.count == 8 && answers.allSatisfy { $0.status == 200 }, "\(answers)")
        let slowest = answers.map(\.seconds).max() ?? 0
        #expect(slowest < 1.0, "a request waited \(slowest) s behind another request's token lookup")
        #expect(slowStatus == 200, "the slow request is answered once the database answers")
    }
}
