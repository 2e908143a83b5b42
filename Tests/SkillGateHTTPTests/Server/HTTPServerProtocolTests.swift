import Foundation
import SkillGateHTTP
import Testing

/// HTTP/1.1 behaviour the server's own reader and writer owe clients (decision 0058): the interim 100 for
/// `Expect: 100-continue`, HTTP/1.0 persistence and streams, and requests pipelined behind one another.
@Suite("HTTPServer protocol")
struct HTTPServerProtocolTests {
    static let echo: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { request, responder in
        responder.respond(status: 200, headers: ["Content-Type": "text/plain"],
                          body: Array("\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))".utf8))
    }

    @Test func aClientExpecting100GetsItBeforeSendingTheBody() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let (interim, response) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 3)
                client.send("POST /up HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
                let interim = client.readResponseHead()   // sent before a single body byte
                client.send("hello")
                return (interim, client.readResponse())
            }
            #expect(interim == 100)
            #expect(response?.status == 200)
            #expect(response?.bodyText == "POST /up hello")
        }
    }

    @Test func anExpectationOtherThan100ContinueGets417() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 3)
                client.send("POST /up HTTP/1.1\r\nHost: x\r\nExpect: tea\r\nContent-Length: 5\r\n\r\n")
                return client.readResponse()
            }
            #expect(response?.status == 417)
            #expect(response?.header("Connection")?.lowercased() == "close")
        }
    }

    @Test func anHTTP10ClientAskingForKeepAliveKeepsItsConnection() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let (first, second) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 3)
                client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let first = client.readResponse()
                client.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                return (first, client.readResponse())
            }
            #expect(first?.header("Connection")?.lowercased() == "keep-alive")
            #expect(first?.bodyText == "GET /a ")
            #expect(second?.bodyText == "GET /b ")
        }
    }

    /// HTTP/1.0 has no chunked coding: a request that says Transfer-Encoding anyway has faulty framing (RFC 9112 §6.1). It
    /// is answered, and the connection closes after the answer even though it asked for keep-alive, so the bytes after
    /// it are never read as a request.
    @Test func anHTTP10RequestWithTransferEncodingIsAnsweredAndTheConnectionClosed() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let (response, rest) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                client.send("POST /a HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                            + "GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                return (client.readResponse(), client.readUntilClosed())
            }
            #expect(response?.bodyText == "POST /a abc")
            #expect(response?.header("Connection")?.lowercased() == "close")
            #expect(rest.closed)
            #expect(rest.bytes.isEmpty, "a request after the faulty framing was answered: \(String(decoding: rest.bytes, as: UTF8.self))")
        }
    }

    /// An HTTP/1.0 client cannot read chunks: the stream's bytes go out as they are and the close ends the body.
    @Test func aStreamToAnHTTP10ClientEndsWithTheConnection() async throws {
        try await withTestServer(handler: { _, responder in
            try? await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
            for part in ["data: 1\n\n", "data: 2\n\n"] { try? await responder.write(Array(part.utf8)) }
            responder.end()
        }) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 3)
                client.send("GET /s HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                return client.readResponse()   // no length, no chunks: reads to the close
            }
            #expect(response?.header("Transfer-Encoding") == nil)
            #expect(response?.header("Connection")?.lowercased() == "close")
            #expect(response?.bodyText == "data: 1\n\ndata: 2\n\n")
        }
    }

    /// Three requests in one write, the middle one with a chunked body, are answered in order on one connection.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let bodies = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 3)
                client.send(rawGET("/one") + "POST /two HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                            + "\r\n" + rawGET("/three"))
                return (0..<3).map { _ in client.readResponse()?.bodyText ?? "<none>" }
            }
            #expect(bodies == ["GET /one ", "POST /two abc", "GET /three "])
        }
    }

    /// A head that arrives a few bytes at a time, split inside its line ends, is read as if sent whole.
    @Test func aHeadSplitAcrossManyReadsIsReadWhole() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 3)
                let request = Array("POST /split?q=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody".utf8)
                for start in stride(from: 0, to: request.count, by: 3) {
                    client.send(Array(request[start..<min(request.count, start + 3)]))
                    Thread.sleep(forTimeInterval: 0.002)
                }
                return client.readResponse()
            }
            #expect(response?.bodyText == "POST /split body")
        }
    }
}
