import Foundation
import Testing
@testable import SkillGateHTTP

/// Connections opened in a burst are spread over the event loops sharing one listening socket (`AcceptBalance`).
/// A loop starved of CPU for longer than the pause (three loops on two cores, tests running in parallel) lets the
/// others go on accepting, so the check allows a spread of a quarter of the connections; without the balance one
/// loop took all 32 in about half the runs.
@Suite struct HTTPServerAcceptBalanceTests {
    /// Answers with the name of the thread the handler runs on: its connection's loop (`sg-http-N`).
    static let threadName: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { _, responder in
        let text = ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
        responder.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8))
    }

    @Test(arguments: [2, 3])
    func aBurstOfKeepAliveConnectionsIsSpreadOverTheLoops(loops: Int) async throws {
        try await withTestServer({ $0.loops = loops; keepIdleConnectionsOpen(&$0) }, handler: Self.threadName) { server, port in
            // Open every connection first (the burst), then use each once, keeping them all open.
            let clients = try (0..<32).map { _ in try RawHTTPClient(port: port) }
            let threads = try await RawHTTPClient.blocking {
                clients.enumerated().compactMap { i, client in
                    client.send(rawGET("/c/\(i)"))
                    return client.readResponse()?.bodyText
                }
            }
            let perLoop = (0..<loops).map { n in threads.filter { $0 == "sg-http-\(n)" }.count }
            #expect(perLoop.reduce(0, +) == 32, "\(threads)")
            #expect(perLoop.max()! - perLoop.min()! <= 8, "\(perLoop)")
            #expect(server.shared.balance.openConnections == perLoop)
            withExtendedLifetime(clients) {}
        }
    }

    @Test func oneLoopOrOneSocketPerLoopIsNotBalanced() {
        #expect(!AcceptBalance(loops: 1, sharedSocket: true).enabled)
        #expect(!AcceptBalance(loops: 4, sharedSocket: false).enabled)
        let balance = AcceptBalance(loops: 2, sharedSocket: true)
        #expect(!balance.update(loop: 0, openConnections: 3), "below the minimum a loop never pauses")
        #expect(balance.update(loop: 0, openConnections: 4), "two ahead of the other loop: pause")
        #expect(!balance.update(loop: 1, openConnections: 3))
        #expect(!balance.update(loop: 0, openConnections: 4))
    }
}
