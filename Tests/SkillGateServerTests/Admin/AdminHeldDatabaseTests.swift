import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// The admin API's answers are worked out off the event loops (decision 0086): while the database is busy, an admin
/// request (here the token list the console polls) waits alone, and other connections on every loop are answered.
@Suite(.serialized) struct AdminHeldDatabaseTests {
    @Test(arguments: ["/admin/api/tokens", "/admin/api/usage", "/admin/api/limits"])
    func anAdminReadWaitsAloneForTheDatabase(_ path: String) async throws {
        let h = try TeamHarness(tokenLimits: TokenLimits(requestsPerMinute: 1000))
        let admin = try h.server.services.tokens.create(name: "console", admin: true, chat: true).token
        let request = "GET \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(admin)\r\n\r\n"
        // The admin token is cached too: the answer is what needs the database, not the token's check.
        let run = try await HeldDatabaseRun.run(h.server, token: h.token, alsoCached: [admin], waiting: request)
        await h.stop()
        #expect(run.answers.count == 8 && run.answers.allSatisfy { $0.status == 200 }, "\(run.answers)")
        #expect(run.slowest < 1.5, "a request waited \(run.slowest) s behind \(path)")
        #expect(run.waitingStatus == 200, "\(path) is answered once the database answers")
    }

    /// The usage report reads the ledger on a connection of its own (decision 0089): it is answered while a ledger
    /// batch holds the store's main connection, rather than after it.
    @Test func theUsageReportDoesNotWaitForALedgerBatch() async throws {
        let h = try TeamHarness(tokenLimits: TokenLimits(requestsPerMinute: 1000))
        let admin = try h.server.services.tokens.create(name: "console", admin: true, chat: true).token
        let store = try #require(h.server.services.tokens.store as? SQLiteStateStore)
        let port = h.server.boundPort
        let request = "GET /admin/api/usage?by=model&days=30 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(admin)\r\n\r\n"
        let socket = try RawSocket(port: port, receiveTimeout: 10)
        let (warm, held) = try await RawSocket.run { () -> (Int?, (status: Int?, seconds: Double)) in
            socket.send(request)  // caches the admin token: below, only the report needs the database
            let warm = socket.readOneResponse()
            store.holdConnection(for: 3)
            let begin = Date()
            socket.send(request)
            return (warm, (socket.readOneResponse(), Date().timeIntervalSince(begin)))
        }
        await h.stop()
        #expect(warm == 200)
        #expect(held.status == 200)
        #expect(held.seconds < 1.5, "the usage report waited \(held.seconds) s for the main connection")
    }
}
