import Foundation
import Testing
import SkillGateHTTP
import SkillGateKeys
import SkillGateState
@testable import SkillGateServer

/// A token the cache does not hold is looked up off the event loops (decision 0077): while the state database is
/// busy (here its one connection held, as a long ledger batch holds it), a request with such a token waits alone, and
/// the requests of cached tokens on every loop are answered meanwhile.
@Suite(.serialized) struct GatewayTokenLookupTests {
    typealias Harness = GatewayLoopbackTests.Harness

    @Test func aLookupThatWaitsOnTheDatabaseHoldsUpNoOtherRequest() async throws {
        let h = try Harness()
        let port = h.server.boundPort
        let token = h.token
        let store = try #require(h.server.services.tokens.store as? SQLiteStateStore)
        // Keep-alive connections with the cached token, spread over both loops (the loops balance what they accept).
        let sockets = try (0..<8).map { _ in try RawSocket(port: port, receiveTimeout: 10) }
        let warmed = try await RawSocket.run {
            sockets.map { socket -> Int? in
                socket.send(RawSocket.modelsRequest(token))
                return socket.readOneResponse()
            }
        }
        #expect(warmed.allSatisfy { $0 == 200 }, "\(warmed)")

        // The rest runs on one thread of its own: in the parallel suite the cooperative pool can be busy for seconds,
        // which must not stretch the steps below past the hold or the token's cache lifetime.
        let tokens = h.server.services.tokens
        let (renewed, answers, refused) = try await RawSocket.run { () throws -> (Int?, [(status: Int?, seconds: Double)], Int?) in
            // The token's cache entry is renewed now, so it stays fresh (2 s) through the steps below.
            tokens.invalidateCache()
            sockets[0].send(RawSocket.modelsRequest(token))
            let renewed = sockets[0].readOneResponse()
            // The database's one connection is held for 3 s.
            store.holdConnection(for: 3)
            // A made-up token (well formed, so only the store can tell): its lookup waits for the database.
            let madeUp = "sgk_" + String(repeating: "A", count: TokenFormat.length - 4)
            let waiting = try RawSocket(port: port, receiveTimeout: 10)
            waiting.send(RawSocket.modelsRequest(madeUp))
            Thread.sleep(forTimeInterval: 0.1)
            // Every cached-token connection is answered while that lookup waits.
            let answers = RawSocket.timedModelsAnswers(sockets, token: token)
            return (renewed, answers, waiting.readOneResponse())
        }
        #expect(renewed == 200)
        let statistics = h.server.serverStatistics
        await h.stop()
        #expect(answers.allSatisfy { $0.status == 200 }, "\(answers)")
        let slowest = answers.map(\.seconds).max() ?? 0
        #expect(slowest < 1.5, "a cached token's request waited \(slowest) s behind another request's token lookup")
        #expect(refused == 401, "the made-up token is refused once the database answers")
        #expect(statistics.deferredHeadDecisions >= 1)
    }

    @Test func anUncachedValidTokenIsAdmittedAfterItsLookup() async throws {
        let h = try Harness()
        h.server.services.tokens.invalidateCache()
        let r = try await h.post("/v1/chat/completions", GatewayLoopbackTests.chat)
        let statistics = h.server.serverStatistics
        await h.stop()
        #expect(r.status == 200)
        #expect(statistics.deferredHeadDecisions == 1)
        #expect(statistics.refusedAtHead == 0)
    }
}
