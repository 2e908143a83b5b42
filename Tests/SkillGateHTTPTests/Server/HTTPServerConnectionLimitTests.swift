import Foundation
import SkillGateHTTP
import Testing

/// `maxConnections` and `maxConnectionsPerIP`: connections over a cap get a 503 and are closed at once.
@Suite("HTTPServer connection limits")
struct HTTPServerConnectionLimitTests {
    static let ok: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { _, responder in
        responder.respond(status: 200, headers: [:], body: Array("fine".utf8))
    }

    /// Opens `count` idle connections and returns them once the server has admitted them all.
    static func openIdle(_ count: Int, port: Int, server: HTTPServer) async throws -> [RawHTTPClient] {
        var clients: [RawHTTPClient] = []
        for _ in 0..<count { clients.append(try RawHTTPClient(port: port)) }
        #expect(await serverSettles { server.statistics.openConnections == count }, "the server did not admit \(count) connections")
        return clients
    }

    static func refusedConnection(port: Int) async throws -> (RawHTTPResponse?, Bool) {
        try await RawHTTPClient.blocking {
            // Long enough for a starved loop thread (see `serverSettles`); a refused connection is answered at once.
            let client = try RawHTTPClient(port: port, receiveTimeout: 15)
            let response = client.readResponse()
            return (response, client.readUntilClosed().closed)
        }
    }

    @Test func connectionsOverTheTotalCapAreRefusedAndCounted() async throws {
        try await withTestServer({ $0.maxConnections = 2; keepIdleConnectionsOpen(&$0) }, handler: Self.ok) { server, port in
            var idle = try await Self.openIdle(2, port: port, server: server)
            let (response, closed) = try await Self.refusedConnection(port: port)
            #expect(response?.status == 503)
            #expect(response?.bodyText.contains("maximum number of open connections") == true)
            #expect(closed)
            #expect(server.statistics.refusedOverTotal == 1)
            #expect(server.statistics.openConnections == 2)
            #expect(server.statistics.acceptedConnections == 3, "two admitted and one refused")
            let closedPort = idle.last?.localPort ?? 0
            idle.removeLast()   // closes one
            let seen = await serverSettles { server.statistics.openConnections == 1 }
            if !seen {
                // Decision 0034: is the loop still serving, and where is the server's socket of the closed connection?
                let remaining = idle[0]
                let served = try await RawHTTPClient.blocking {
                    remaining.send(rawGET("/"))
                    return remaining.readResponse()?.bodyText == "fine"
                }
                Issue.record("the server did not see the client's close: \(SocketDiagnostics.serverSide(serverPort: port, clientPort: closedPort)); open \(server.statistics.openConnections); the other connection \(served ? "is" : "is not") served")
            }
            let next = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/"))
                return client.readResponse()
            }
            #expect(next?.bodyText == "fine")
            _ = idle
        }
    }

    @Test func connectionsOverThePerIPCapAreRefusedAndCounted() async throws {
        try await withTestServer({ $0.maxConnectionsPerIP = 1; keepIdleConnectionsOpen(&$0) }, handler: Self.ok) { server, port in
            let idle = try await Self.openIdle(1, port: port, server: server)
            let (response, closed) = try await Self.refusedConnection(port: port)
            #expect(response?.status == 503)
            #expect(response?.bodyText.contains("Your address") == true)
            #expect(closed)
            #expect(server.statistics.refusedOverPerIP == 1)
            _ = idle
        }
    }

    @Test func closedConnectionsAreNoLongerCounted() async throws {
        try await withTestServer({ $0.maxConnections = 1 }, handler: Self.ok) { server, port in
            for _ in 0..<5 {
                let response = try await RawHTTPClient.blocking {
                    let client = try RawHTTPClient(port: port)
                    client.send(rawGET("/", extraHeaders: "Connection: close\r\n"))
                    return client.readResponse()
                }
                #expect(response?.bodyText == "fine")
                #expect(await serverSettles { server.statistics.openConnections == 0 })
            }
            #expect(server.statistics.refusedOverTotal == 0)
        }
    }
}
