import Foundation
import SkillGateHTTP
import Testing

/// `headGate` decides on the head alone: a refused request is answered before its body is read.
@Suite("HTTPServer head gate")
struct HTTPServerHeadGateTests {
    /// Wants `authorization: let-me-in`; `/public` passes without it but with at most 100 body bytes.
    static let gate: @Sendable (HTTPRequestHead) -> HTTPHeadDecision = { head in
        if head.path == "/public" { return .acceptWithBodyLimit(100) }
        if head.headers["authorization"] == "let-me-in" { return .accept }
        return .reject(status: 401, headers: ["Content-Type": "application/json", "x-why": "no-token"],
                       body: Array(#"{"error":{"message":"send a token","type":"authentication_error"}}"#.utf8))
    }

    static let echo: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { request, responder in
        responder.respond(status: 200, headers: [:], body: Array("\(request.body.count)".utf8))
    }

    @Test func refusedRequestIsAnsweredWithoutReadingItsBody() async throws {
        let handled = ServerTestFlag<Bool>()
        try await withTestServer({ $0.headGate = Self.gate }, handler: { request, responder in
            handled.set(true)
            await Self.echo(request, responder)
        }) { server, port in
            // Timed on the client's own thread: a cooperative pool kept busy by other tests must not count.
            let (response, closed, took) = try await RawHTTPClient.blocking {
                let clock = ContinuousClock()
                let begin = clock.now
                let client = try RawHTTPClient(port: port, receiveTimeout: 3)
                // A 4 MiB body is announced and never sent: only an answer at header time arrives in time.
                client.send("POST /private HTTP/1.1\r\nHost: x\r\nContent-Length: 4194304\r\n\r\n")
                let response = client.readResponse()
                return (response, client.readUntilClosed().closed, clock.now - begin)
            }
            #expect(took < .seconds(2))
            #expect(response?.status == 401)
            #expect(response?.header("x-why") == "no-token")
            #expect(response?.header("Connection")?.lowercased() == "close")
            #expect(response?.bodyText.contains("send a token") == true)
            #expect(closed)
            #expect(handled.value == nil)
            #expect(server.statistics.refusedAtHead == 1)
        }
    }

    @Test func acceptedRequestIsReadAndHandled() async throws {
        try await withTestServer({ $0.headGate = Self.gate }, handler: Self.echo) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("POST /private HTTP/1.1\r\nHost: x\r\nAuthorization: let-me-in\r\nContent-Length: 3000\r\n\r\n"
                            + String(repeating: "a", count: 3000))
                return client.readResponse()
            }
            #expect(response?.status == 200)
            #expect(response?.bodyText == "3000")
        }
    }

    @Test func unauthenticatedRouteGetsOnlyItsSmallBodyAllowance() async throws {
        try await withTestServer({ $0.headGate = Self.gate }, handler: Self.echo) { _, port in
            let (small, large) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("POST /public HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n" + String(repeating: "a", count: 50))
                let small = client.readResponse()
                client.send("POST /public HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
                return (small, client.readResponse())
            }
            #expect(small?.bodyText == "50")
            #expect(large?.status == 413)
            // The 413 names the limit it applied, not the server's larger one.
            #expect(large?.bodyText.contains("limit of 100 bytes") == true, "\(large?.bodyText ?? "none")")
        }
    }

    /// A chunked body over the gate's small limit is refused naming that limit too.
    @Test func aChunkedBodyOverTheSmallAllowanceNamesIt() async throws {
        try await withTestServer({ $0.headGate = Self.gate }, handler: Self.echo) { _, port in
            let large = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("POST /public HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n80\r\n" + String(repeating: "a", count: 128) + "\r\n")
                return client.readResponse()
            }
            #expect(large?.status == 413)
            #expect(large?.bodyText.contains("limit of 100 bytes") == true, "\(large?.bodyText ?? "none")")
        }
    }

    /// The gate runs for every request of a keep-alive connection, also when they arrive pipelined.
    @Test func everyRequestOnAKeepAliveConnectionPassesTheGate() async throws {
        try await withTestServer({ $0.headGate = Self.gate; $0.loops = 1 }, handler: Self.echo) { _, port in
            let (first, second) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("GET /a HTTP/1.1\r\nHost: x\r\nAuthorization: let-me-in\r\n\r\n"
                            + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 4194304\r\n\r\n")
                return (client.readResponse(), client.readResponse())
            }
            #expect(first?.status == 200)
            #expect(second?.status == 401)
        }
    }

    /// What the gate found out (`.admit`) reaches the handler with that request only, never with the next request on
    /// the same keep-alive connection.
    @Test func anAdmissionGoesWithItsOwnRequestOnly() async throws {
        final class Caller: HTTPAdmission {
            let name: String
            init(_ name: String) { self.name = name }
        }
        let gate: @Sendable (HTTPRequestHead) -> HTTPHeadDecision = { head in
            if let name = head.headers["x-caller"] { return .admit(Caller(name)) }
            return .accept
        }
        try await withTestServer({ $0.headGate = gate; $0.loops = 1 }, handler: { request, responder in
            responder.respond(status: 200, headers: [:], body: Array(((request.admission as? Caller)?.name ?? "none").utf8))
        }) { _, port in
            let answers = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("GET /a HTTP/1.1\r\nHost: x\r\nx-caller: alice\r\n\r\n")
                let first = client.readResponse()
                client.send("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
                let second = client.readResponse()
                client.send("GET /c HTTP/1.1\r\nHost: x\r\nx-caller: bob\r\n\r\n")
                return [first, second, client.readResponse()].map { $0?.bodyText }
            }
            #expect(answers == ["alice", "none", "bob"])
        }
    }
}
