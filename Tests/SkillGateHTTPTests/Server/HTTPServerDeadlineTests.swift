import Foundation
import SkillGateHTTP
import Testing

/// A head and a body each have a total deadline; a client trickling bytes (each gap shorter than the
/// inactivity timeout) is cut off when it runs out, with a 408.
@Suite("HTTPServer total deadlines")
struct HTTPServerDeadlineTests {
    static let ok: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { _, responder in
        responder.respond(status: 200, headers: [:], body: Array("fine".utf8))
    }

    /// Sends `prefix`, then `trickle` one byte every 250 ms until the server closes or `limit` passes.
    /// Returns what the server answered and how long the connection lasted.
    static func trickle(port: Int, prefix: String, trickle: String, limit: Duration = .seconds(6)) async throws -> (String, Duration) {
        try await RawHTTPClient.blocking {
            let client = try RawHTTPClient(port: port, receiveTimeout: 0.25)
            let clock = ContinuousClock()
            let begin = clock.now
            client.send(prefix)
            var received: [UInt8] = []
            for byte in Array(trickle.utf8) {
                client.send([byte])
                let (bytes, closed) = client.readUntilClosed()
                received += bytes
                if closed || clock.now - begin > limit { break }
            }
            return (String(decoding: received, as: UTF8.self), clock.now - begin)
        }
    }

    @Test func aHeadTrickledPastHeaderTimeoutGets408() async throws {
        try await withTestServer({ $0.headerTimeout = .seconds(1); $0.loops = 1 }, handler: Self.ok) { server, port in
            let (answer, lasted) = try await Self.trickle(port: port, prefix: "GET / HTTP/1.1\r\nHost: x\r\n",
                                                          trickle: String(repeating: "X-Slow: yes\r\n", count: 40))
            #expect(answer.hasPrefix("HTTP/1.1 408"), "answer: \(answer)")
            #expect(lasted < .seconds(3), "the connection lasted \(lasted) with a 1 s header deadline")
            #expect(server.statistics.headerTimeouts == 1)
            // Closed by the server before a request reached the handler, the client's side still open.
            let s = server.statistics
            #expect(s.closedBeforeHandler == 1 && [1, 2].contains(s.lastClosedBeforeHandlerState), "\(s)")
        }
    }

    @Test func aBodyTrickledPastBodyTimeoutGets408() async throws {
        try await withTestServer({ $0.bodyReadTimeout = .seconds(1); $0.loops = 1 }, handler: Self.ok) { server, port in
            let (answer, lasted) = try await Self.trickle(port: port, prefix: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n",
                                                          trickle: String(repeating: "a", count: 100))
            #expect(answer.hasPrefix("HTTP/1.1 408"), "answer: \(answer)")
            #expect(lasted < .seconds(3), "the connection lasted \(lasted) with a 1 s body deadline")
            #expect(server.statistics.bodyTimeouts == 1)
        }
    }

    /// The head deadline counts from a head's first byte, not from the connection's start or the last
    /// request: a keep-alive connection idle longer than headerTimeout still serves its next request.
    @Test func idleKeepAliveTimeDoesNotCountAgainstTheNextHead() async throws {
        try await withTestServer({ $0.headerTimeout = .milliseconds(800); $0.idleKeepAliveTimeout = .seconds(5); $0.loops = 1 },
                                 handler: Self.ok) { _, port in
            let (first, second) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/"))
                let first = client.readResponse()
                Thread.sleep(forTimeInterval: 0.6)
                client.send("GET / HTTP/1.1\r\n")
                Thread.sleep(forTimeInterval: 0.5)
                client.send("Host: x\r\n\r\n")
                return (first, client.readResponse())
            }
            #expect(first?.bodyText == "fine")
            #expect(second?.bodyText == "fine")
        }
    }
}
