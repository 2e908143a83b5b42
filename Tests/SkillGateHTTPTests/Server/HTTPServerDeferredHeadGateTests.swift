import Foundation
import SkillGateHTTP
import Synchronization
import Testing

/// `HTTPHeadDecision.decideLater`: a gate decision made off the event loop (a token lookup in a database) holds only
/// its own request; the loop serves its other connections meanwhile.
@Suite("HTTPServer deferred head gate")
struct HTTPServerDeferredHeadGateTests {
    /// A decision the test releases: `start` parks the completion until `decide` is called.
    final class HeldDecision: Sendable {
        private let waiting = Mutex<[@Sendable (HTTPHeadDecision) -> Void]>([])
        let started = ServerTestFlag<Bool>()

        var deferred: HTTPDeferredHeadDecision {
            HTTPDeferredHeadDecision { decided in
                self.waiting.locked { $0.append(decided) }
                self.started.set(true)
            }
        }

        /// Blocks the calling thread until a decision was started (at most `seconds`); true if one was.
        func waitUntilStarted(seconds: Double = 10) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while started.value == nil, Date() < end { Thread.sleep(forTimeInterval: 0.002) }
            return started.value == true
        }

        /// Reports `decision` to every parked completion, from a thread of its own (Dispatch's width-limited global
        /// queue can be taken for seconds by blocking tests running in parallel).
        func decide(_ decision: HTTPHeadDecision) {
            let completions = waiting.locked { w in defer { w = [] }; return w }
            Thread { for completion in completions { completion(decision) } }.start()
        }
    }

    static let echo: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { request, responder in
        responder.respond(status: 200, headers: [:], body: Array("\(request.path) \(request.body.count)".utf8))
    }

    /// Whether a new connection's request is answered (after a dropped decision, the server goes on as before).
    static func nextRequestIsServed(port: Int) async throws -> Bool {
        let next = try await RawHTTPClient.blocking {
            let client = try RawHTTPClient(port: port)
            client.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
            return client.readResponse()
        }
        return next?.bodyText == "/next 0"
    }

    /// `x-held: 1` defers to `held`; everything else is accepted at once.
    static func gate(_ held: HeldDecision) -> @Sendable (HTTPRequestHead) -> HTTPHeadDecision {
        { head in head.headers["x-held"] == "1" ? .decideLater(held.deferred) : .accept }
    }

    // Each test runs its client side on a thread of its own (`RawHTTPClient.blocking`), and the server gives the
    // decision a minute: in the parallel suite, other tests can keep the cooperative pool busy for seconds, and a
    // decision reported after the head's deadline is rightly answered 503.

    @Test func theLoopServesOtherConnectionsWhileADecisionIsMade() async throws {
        let held = HeldDecision()
        try await withTestServer({ $0.headGate = Self.gate(held); $0.loops = 1; $0.headerTimeout = .seconds(60) },
                                 handler: Self.echo) { server, port in
            let (started, other, answer) = try await RawHTTPClient.blocking {
                let waiting = try RawHTTPClient(port: port)
                waiting.send("POST /held HTTP/1.1\r\nHost: x\r\nx-held: 1\r\nContent-Length: 3000\r\n\r\n" + String(repeating: "a", count: 3000))
                let started = held.waitUntilStarted()
                // The one loop answers another connection while the first request's decision is out.
                let client = try RawHTTPClient(port: port)
                client.send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
                let other = client.readResponse()
                held.decide(.accept)
                return (started, other, waiting.readResponse())
            }
            #expect(started)
            #expect(other?.bodyText == "/other 0")
            #expect(answer?.status == 200)
            #expect(answer?.bodyText == "/held 3000")
            #expect(server.statistics.deferredHeadDecisions == 1)
        }
    }

    /// The body may arrive in the same read as the head, or after the decision; a pipelined request behind it waits its
    /// turn and passes the gate itself.
    @Test func bytesReadBeforeTheDecisionAreKeptForIt() async throws {
        let held = HeldDecision()
        try await withTestServer({ $0.headGate = Self.gate(held); $0.loops = 1; $0.headerTimeout = .seconds(60) },
                                 handler: Self.echo) { _, port in
            let (started, answers) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("POST /first HTTP/1.1\r\nHost: x\r\nx-held: 1\r\nContent-Length: 10\r\n\r\n12345")
                let started = held.waitUntilStarted()
                client.send("67890" + "POST /second HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab")
                Thread.sleep(forTimeInterval: 0.05)
                held.decide(.accept)
                return (started, [client.readResponse(), client.readResponse()])
            }
            #expect(started)
            #expect(answers.map { $0?.bodyText } == ["/first 10", "/second 2"])
        }
    }

    @Test func aDeferredRefusalIsAnsweredWithoutReadingTheBody() async throws {
        let held = HeldDecision()
        let handled = ServerTestFlag<Bool>()
        try await withTestServer({ $0.headGate = Self.gate(held); $0.headerTimeout = .seconds(60) }, handler: { request, responder in
            handled.set(true)
            await Self.echo(request, responder)
        }) { server, port in
            let (started, response, closed) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                // A 4 MiB body is announced and never sent: only an answer without the body arrives.
                client.send("POST /private HTTP/1.1\r\nHost: x\r\nx-held: 1\r\nContent-Length: 4194304\r\n\r\n")
                let started = held.waitUntilStarted()
                held.decide(.reject(status: 401, headers: ["Content-Type": "application/json"], body: Array(#"{"error":"send a token"}"#.utf8)))
                return (started, client.readResponse(), client.readUntilClosed().closed)
            }
            #expect(started)
            #expect(response?.status == 401)
            #expect(response?.bodyText.contains("send a token") == true)
            #expect(closed)
            #expect(handled.value == nil)
            #expect(server.statistics.refusedAtHead == 1)
        }
    }

    @Test func aDecisionThatDoesNotComeIsAnswered503() async throws {
        let held = HeldDecision()
        try await withTestServer({ $0.headGate = Self.gate(held); $0.headerTimeout = .milliseconds(300); $0.loops = 1 },
                                 handler: Self.echo) { server, port in
            let (response, closed) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                client.send("GET /held HTTP/1.1\r\nHost: x\r\nx-held: 1\r\n\r\n")
                return (client.readResponse(), client.readUntilClosed().closed)
            }
            #expect(response?.status == 503)
            #expect(response?.bodyText.contains("retry") == true)
            #expect(closed)
            #expect(server.statistics.headDecisionTimeouts == 1)
            // The decision that comes after the answer finds its connection gone and is dropped.
            held.decide(.accept)
            #expect(try await Self.nextRequestIsServed(port: port))
        }
    }

    /// The client resets its connection (a close with unread data, or SO_LINGER 0). An orderly close of a client with
    /// nothing unread cannot be told from a half-close while the gate decides, and is answered like one (decision 0091,
    /// `aCompleteRequestHalfClosedWhileTheGateDecidesIsAnsweredThenClosed`); the answer then meets the reset.
    @Test func aClientThatLeavesWhileTheGateDecidesIsClosedAndForgotten() async throws {
        let held = HeldDecision()
        let handled = ServerTestFlag<Bool>()
        try await withTestServer({ $0.headGate = Self.gate(held); $0.loops = 1; $0.headerTimeout = .seconds(60) }, handler: { request, responder in
            if request.path == "/held" { handled.set(true) }
            await Self.echo(request, responder)
        }) { server, port in
            do {
                let client = try RawHTTPClient(port: port)
                client.send("GET /held HTTP/1.1\r\nHost: x\r\nx-held: 1\r\n\r\n")
                #expect(await held.started.wait(upTo: .seconds(10)) == true)
                client.reset()
            }
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            while server.statistics.openConnections > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(server.statistics.openConnections == 0)
            held.decide(.accept)
            #expect(try await Self.nextRequestIsServed(port: port))
            #expect(handled.value == nil)
        }
    }

    /// A client that sends its whole request and half-closes (`shutdown(SHUT_WR)`) while the gate decides is answered,
    /// then closed (decision 0091). Before, the end of stream closed the connection and the request was dropped without
    /// an answer, where a gate that decided at once answered the same request.
    @Test func aCompleteRequestHalfClosedWhileTheGateDecidesIsAnsweredThenClosed() async throws {
        let held = HeldDecision()
        try await withTestServer({ $0.headGate = Self.gate(held); $0.loops = 1; $0.headerTimeout = .seconds(60) },
                                 handler: Self.echo) { server, port in
            let (started, response, rest) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                client.send("POST /held HTTP/1.1\r\nHost: x\r\nx-held: 1\r\nContent-Length: 5\r\n\r\nhello")
                let started = held.waitUntilStarted()
                client.halfClose()
                Thread.sleep(forTimeInterval: 0.2)   // the server sees the end of stream while the decision is out
                held.decide(.accept)
                return (started, client.readResponse(), client.readUntilClosed())
            }
            #expect(started)
            #expect(response?.status == 200)
            #expect(response?.bodyText == "/held 5")
            #expect(response?.header("Connection")?.lowercased() == "close")
            #expect(rest.closed && rest.bytes.isEmpty)
            #expect(await serverSettles { server.statistics.openConnections == 0 })
        }
    }

    /// The same request and half-close with a gate that decides at once: the handler answers within the loop turn that
    /// read the request, before the loop reads the end of stream, so it is answered too.
    @Test func aCompleteRequestHalfClosedWithAGateThatDecidesAtOnceIsAnswered() async throws {
        try await withTestServer({ $0.headGate = { _ in .accept }; $0.loops = 1 }, handler: Self.echo) { _, port in
            let answers = try await RawHTTPClient.blocking {
                try (0..<5).map { _ in
                    let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                    client.send("POST /now HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
                    client.halfClose()
                    return client.readResponse()?.bodyText
                }
            }
            #expect(answers == Array(repeating: "/now 5", count: 5))
        }
    }

    /// A streamed answer to a client that half-closed while the gate decided goes out whole: the client still reads.
    @Test func aStreamToAClientThatHalfClosedWhileTheGateDecidedGoesOutWhole() async throws {
        let held = HeldDecision()
        try await withTestServer({ $0.headGate = Self.gate(held); $0.loops = 1; $0.headerTimeout = .seconds(60) }, handler: { _, responder in
            do {
                try await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
                for i in 0..<3 {
                    try await responder.write(Array("data: \(i)\n\n".utf8))
                    try await Task.sleep(for: .milliseconds(20))
                }
                responder.end()
            } catch {}
        }) { _, port in
            let (started, response, closed) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                client.send("GET /held HTTP/1.1\r\nHost: x\r\nx-held: 1\r\n\r\n")
                let started = held.waitUntilStarted()
                client.halfClose()
                Thread.sleep(forTimeInterval: 0.2)
                held.decide(.accept)
                return (started, client.readResponse(), client.readUntilClosed().closed)
            }
            #expect(started)
            #expect(response?.status == 200)
            #expect(response?.bodyText == "data: 0\n\ndata: 1\n\ndata: 2\n\n")
            #expect(closed)
        }
    }

    /// Half a request and then the end of the client's side is still closed at once, without an answer: a body that
    /// has not all come while the gate decides, and a head cut short.
    @Test func aRequestCutShortByAHalfCloseIsClosedWithoutAnAnswer() async throws {
        let held = HeldDecision()
        let handled = ServerTestFlag<Bool>()
        try await withTestServer({ $0.headGate = Self.gate(held); $0.loops = 1; $0.headerTimeout = .seconds(60); $0.bodyReadTimeout = .seconds(60) },
                                 handler: { request, responder in
            handled.set(true)
            await Self.echo(request, responder)
        }) { server, port in
            let (started, gated, head) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                client.send("POST /held HTTP/1.1\r\nHost: x\r\nx-held: 1\r\nContent-Length: 10\r\n\r\nhello")
                let started = held.waitUntilStarted()
                let begin = ContinuousClock.now
                client.halfClose()
                let gated = (client.readUntilClosed(), ContinuousClock.now - begin)
                let other = try RawHTTPClient(port: port, receiveTimeout: 10)
                other.send("GET /cut HTTP/1.1\r\nHost: x\r\n")
                let start = ContinuousClock.now
                other.halfClose()
                return (started, gated, (other.readUntilClosed(), ContinuousClock.now - start))
            }
            #expect(started)
            #expect(gated.0.closed && gated.0.bytes.isEmpty, "\(String(decoding: gated.0.bytes, as: UTF8.self))")
            #expect(gated.1 < .seconds(5), "closed after \(gated.1)")
            #expect(head.0.closed && head.0.bytes.isEmpty)
            #expect(head.1 < .seconds(5), "closed after \(head.1)")
            held.decide(.accept)
            #expect(await serverSettles { server.statistics.openConnections == 0 })
            #expect(handled.value == nil)
        }
    }

    @Test func aDecisionDeferredTwiceIsAServerError() async throws {
        let gate: @Sendable (HTTPRequestHead) -> HTTPHeadDecision = { _ in
            .decideLater(HTTPDeferredHeadDecision { decided in
                decided(.decideLater(HTTPDeferredHeadDecision { _ in }))
            })
        }
        try await withTestServer({ $0.headGate = gate; $0.loops = 1 }, handler: Self.echo) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
                return client.readResponse()
            }
            #expect(response?.status == 500)
        }
    }
}
