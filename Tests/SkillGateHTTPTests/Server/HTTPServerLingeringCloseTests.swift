import Foundation
import SkillGateHTTP
import Synchronization
import Testing

/// Lingering close (decision 0167): a connection the server refuses while its client may still be sending (a body over
/// the limit, a refusal at the head, a connection over a cap) is shut for writing after the answer and read to its end
/// before it is closed, so the client reads the answer instead of a reset — within a time, byte and count budget.
@Suite("HTTPServer lingering close")
struct HTTPServerLingeringCloseTests {
    static let ok: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { _, responder in
        responder.respond(status: 200, headers: [:], body: Array("fine".utf8))
    }

    /// For tests that count how lingering sockets end: a linger that outlasts any stall of a loaded machine, so each
    /// ends by its client (or the bound, or the stop), never by the default 5 s.
    static func lingerLong(_ configuration: inout HTTPServer.Configuration) {
        configuration.lingeringCloseTime = .seconds(120)
    }

    /// A request head and its whole body, sent in one go as most client libraries do (they read only once the body is out).
    static func post(bodyBytes: Int) -> [UInt8] {
        Array("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(bodyBytes)\r\n\r\n".utf8)
            + [UInt8](repeating: 0x61, count: bodyBytes)
    }

    /// Before: every connection whose body was larger than the first read (200 KB, 3 MB) ended in a reset (ECONNRESET). On
    /// loopback the answer stays readable before the reset; over a network, closing with unread bytes discards whatever
    /// of the answer the server's kernel has not sent yet.
    @Test(arguments: [4_096, 200_000, 3_000_000])
    func aClientThatSendsItsWholeBodyReadsTheRefusalMadeAtTheHead(bodyBytes: Int) async throws {
        try await withTestServer({ $0.maxBodyBytes = 1024; Self.lingerLong(&$0) }, handler: Self.ok) { server, port in
            let (status, ended, error) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 15)
                client.send(Self.post(bodyBytes: bodyBytes))
                let status = client.readResponse()?.status
                let ended = client.readUntilClosed().closed
                return (status, ended, client.lastReceiveError)
            }
            #expect(status == 413, "errno \(error)")
            #expect(ended && error == 0, "the connection ended with errno \(error), not an orderly end")
            // The client's end (its descriptor closed above) ends the linger.
            #expect(await serverSettles { server.statistics.lingeringCloses == 1 })
            #expect(server.statistics.lingeringClosesCutShort == 0)
            #expect(server.statistics.lingeringConnections == 0)
        }
    }

    /// A client over a connection cap that sends its request's head and then its body, as Python's `http.client` does,
    /// and gives up when a send fails. Before: the server's reset (the 503 written, the descriptor closed with the head
    /// unread) made the body's send fail with ECONNRESET or EPIPE in nearly every round, and such a client never read
    /// the 503.
    @Test func clientsOverTheConnectionCapThatSendTheirRequestReadThe503() async throws {
        try await withTestServer({ $0.maxConnectionsPerIP = 1; keepIdleConnectionsOpen(&$0); Self.lingerLong(&$0) }, handler: Self.ok) { server, port in
            let held = try RawHTTPClient(port: port)
            #expect(await serverSettles { server.statistics.openConnections == 1 })
            let rounds = 20
            let outcomes = try await RawHTTPClient.blocking {
                (0..<rounds).map { _ -> String in
                    guard let client = try? RawHTTPClient(port: port, receiveTimeout: 15) else { return "connect failed" }
                    let request = Self.post(bodyBytes: 2048)
                    guard client.sendOnce(Array(request[..<(request.count - 2048)])) else { return "head not sent" }
                    usleep(20_000)   // the server has answered by now
                    guard client.sendOnce(Array(request.suffix(2048))) else { return "body not sent, errno \(client.lastSendError)" }
                    guard let response = client.readResponse() else { return "no answer, errno \(client.lastReceiveError)" }
                    return "\(response.status)"
                }
            }
            #expect(outcomes == Array(repeating: "503", count: rounds))
            #expect(server.statistics.refusedOverPerIP == rounds)
            #expect(await serverSettles { server.statistics.lingeringCloses == rounds })
            #expect(server.statistics.lingeringConnections == 0)
            _ = held
        }
    }

    /// A client that never stops sending is not read forever: the linger ends at its time budget.
    @Test func aClientThatKeepsSendingIsClosedWhenTheLingerTimeIsUp() async throws {
        try await withTestServer({ $0.maxBodyBytes = 1024; $0.lingeringCloseTime = .milliseconds(300) }, handler: Self.ok) { server, port in
            let (status, sendingFor) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 15)
                client.send(Array("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000000\r\n\r\n".utf8))
                let status = client.readResponse()?.status
                // Trickle on until a send fails (the server closed): at most 10 s.
                let start = ContinuousClock.now
                while ContinuousClock.now - start < .seconds(10), client.sendOnce([UInt8](repeating: 0x61, count: 512)) {
                    usleep(20_000)
                }
                return (status, ContinuousClock.now - start)
            }
            #expect(status == 413)
            #expect(sendingFor < .seconds(8), "the server went on reading for \(sendingFor)")
            #expect(await serverSettles { server.statistics.lingeringClosesCutShort == 1 })
            #expect(server.statistics.lingeringConnections == 0)
        }
    }

    /// Nor is a fast sender read without end: the linger ends at its byte budget.
    @Test func aClientThatSendsMoreThanTheByteBudgetIsClosed() async throws {
        try await withTestServer({ $0.maxBodyBytes = 1024; $0.lingeringCloseMaxBytes = 64 * 1024 }, handler: Self.ok) { server, port in
            let sent = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 15)
                client.send(Array("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000000\r\n\r\n".utf8))
                var sent = 0
                let chunk = [UInt8](repeating: 0x61, count: 65536)
                while sent < 200 * 1024 * 1024, client.sendOnce(chunk) { sent += chunk.count }
                return sent
            }
            #expect(sent < 200 * 1024 * 1024, "the server read \(sent) bytes after its answer")
            #expect(await serverSettles { server.statistics.lingeringClosesCutShort == 1 })
            #expect(server.statistics.lingeringConnections == 0)
        }
    }

    /// A loop lingers on at most `maxLingeringConnectionsPerLoop` sockets; refusals beyond it close at once.
    @Test func aLoopLingersOnABoundedNumberOfSockets() async throws {
        try await withTestServer({ $0.loops = 1; $0.maxBodyBytes = 1024; $0.maxLingeringConnectionsPerLoop = 2; Self.lingerLong(&$0) }, handler: Self.ok) { server, port in
            let clients = try await RawHTTPClient.blocking {
                try (0..<4).map { _ -> RawHTTPClient in
                    let client = try RawHTTPClient(port: port, receiveTimeout: 15)
                    client.send(Array("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\n".utf8))
                    #expect(client.readResponse()?.status == 413)
                    return client
                }
            }
            // The first two linger (their clients have not ended), the last two were closed at once.
            #expect(await serverSettles { server.statistics.lingeringConnections == 2 && server.statistics.lingeringClosesCutShort == 2 })
            for client in clients { client.closeNow() }
            #expect(await serverSettles { server.statistics.lingeringCloses == 2 }, "the two lingering sockets end with their clients' ends")
            #expect(server.statistics.lingeringConnections == 0)
        }
    }

    /// Stopping the server closes the sockets it lingers on.
    @Test func stoppingTheServerClosesLingeringSockets() async throws {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, loops: 1)
        configuration.maxBodyBytes = 1024
        Self.lingerLong(&configuration)
        let server = try HTTPServer(configuration: configuration, handler: ServerTestHandler(Self.ok))
        try server.start()
        let port = server.boundPort
        let client = try await RawHTTPClient.blocking {
            let client = try RawHTTPClient(port: port, receiveTimeout: 15)
            client.send(Array("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\n".utf8))
            #expect(client.readResponse()?.status == 413)
            return client
        }
        #expect(await serverSettles { server.statistics.lingeringConnections == 1 })
        await server.shutdown(deadline: .seconds(1))
        #expect(server.statistics.lingeringConnections == 0)
        let sendFailed = try await RawHTTPClient.blocking {
            // The server's end is gone: a send is answered with a reset, and the next one fails.
            (0..<50).contains { _ in
                usleep(20_000)
                return !client.sendOnce(Array("more".utf8))
            }
        }
        #expect(sendFailed)
    }
}

