import Foundation
import SkillGateHTTP
import Synchronization
import Testing

/// Body framing two parsers could disagree on is refused at header time, before any body byte is read
/// (the tests send heads only: an answer proves the server did not wait for a body).
@Suite("HTTPServer request framing")
struct HTTPServerFramingTests {
    struct Head: Sendable, CustomStringConvertible {
        let name: String
        let fields: String
        let status: Int
        /// Debian's libevent 2.1.12 security update already refuses Transfer-Encoding with Content-Length
        /// while parsing (a 400 of its own, also before the body); stock 2.1.12 leaves it to the server.
        var libeventMayRefuse = false
        var description: String { name }
    }

    static let refused: [Head] = [
        Head(name: "duplicate equal Content-Length", fields: "Content-Length: 2\r\nContent-Length: 2\r\n", status: 400),
        Head(name: "conflicting Content-Length", fields: "Content-Length: 2\r\nContent-Length: 5\r\n", status: 400),
        Head(name: "signed Content-Length", fields: "Content-Length: +2\r\n", status: 400),
        Head(name: "tab before Content-Length digits and a space inside", fields: "Content-Length: \t2 2\r\n", status: 400),
        Head(name: "list Content-Length", fields: "Content-Length: 2,2\r\n", status: 400),
        Head(name: "non-digit Content-Length", fields: "Content-Length: 2x\r\n", status: 400),
        Head(name: "overflowing Content-Length", fields: "Content-Length: 99999999999999999999999\r\n", status: 400),
        Head(name: "Transfer-Encoding with Content-Length", fields: "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n", status: 400,
             libeventMayRefuse: true),
        Head(name: "Content-Length with Transfer-Encoding", fields: "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n", status: 400,
             libeventMayRefuse: true),
        Head(name: "unsupported transfer coding", fields: "Transfer-Encoding: gzip, chunked\r\n", status: 501),
        Head(name: "a body in a content coding", fields: "Content-Encoding: gzip\r\nContent-Length: 20\r\n", status: 415),
        Head(name: "two Transfer-Encoding fields", fields: "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", status: 501,
             libeventMayRefuse: true),
    ]

    @Test(arguments: refused)
    func malformedFramingIsRefusedBeforeTheBody(_ head: Head) async throws {
        let handled = ServerTestFlag<Bool>()
        try await withTestServer({ $0.loops = 1 }, handler: { _, responder in
            handled.set(true)
            responder.respond(status: 200, headers: [:], body: [])
        }) { server, port in
            let (response, closed) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 3)
                client.send("POST /x HTTP/1.1\r\nHost: x\r\n\(head.fields)\r\n")
                let response = client.readResponse()
                return (response, client.readUntilClosed().closed)
            }
            #expect(response?.status == head.status || (head.libeventMayRefuse && response?.status == 400))
            #expect(response?.header("Content-Type") == "application/json")
            #expect(response?.header("Connection")?.lowercased() == "close")
            #expect(response?.header("Accept-Encoding") == (head.status == 415 ? "identity" : nil))
            #expect(closed)
            #expect(handled.value == nil, "a request with broken framing reached the handler")
            #expect(server.statistics.refusedAtHead == 1 || head.libeventMayRefuse)
        }
    }

    @Test func plainContentLengthStillWorks() async throws {
        try await withTestServer(handler: { request, responder in
            responder.respond(status: 200, headers: [:], body: request.body)
        }) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length:  5 \r\n\r\nhello")
                return client.readResponse()
            }
            #expect(response?.status == 200)
            #expect(response?.bodyText == "hello")
        }
    }

    // A HEAD request's body is framed like a GET's (RFC 9112 §6.3): before, its bytes were read as the next request, so a
    // request hidden in a HEAD's body reached the handler unseen by whatever read the HEAD (request smuggling).

    static let pathEcho: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { request, responder in
        responder.respond(status: 200, headers: [:], body: Array("\(request.method) \(request.path) \(request.body.count)".utf8))
    }

    static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test func aHeadRequestsContentLengthBodyIsReadAsItsBody() async throws {
        let seen = Mutex<[String]>([])
        try await withTestServer({ $0.loops = 1 }, handler: { request, responder in
            seen.locked { $0.append(request.path) }
            await Self.pathEcho(request, responder)
        }) { _, port in
            let (head, next) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                client.send("HEAD /h HTTP/1.1\r\nHost: x\r\nContent-Length: \(Self.smuggled.utf8.count)\r\n\r\n\(Self.smuggled)" + rawGET("/after"))
                return (client.readResponseHead(), client.readResponse())
            }
            #expect(head == 200)
            #expect(next?.bodyText == "GET /after 0", "the HEAD's body was read as a request: \(next?.bodyText ?? "none")")
            #expect(seen.locked { $0 } == ["/h", "/after"])
        }
    }

    @Test func aHeadRequestsChunkedBodyIsReadAsItsBody() async throws {
        let seen = Mutex<[String]>([])
        try await withTestServer({ $0.loops = 1 }, handler: { request, responder in
            seen.locked { $0.append("\(request.path) \(request.body.count)") }
            await Self.pathEcho(request, responder)
        }) { _, port in
            let chunked = String(Self.smuggled.utf8.count, radix: 16) + "\r\n" + Self.smuggled + "\r\n0\r\n\r\n"
            let (head, next) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                client.send("HEAD /h HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked + rawGET("/after"))
                return (client.readResponseHead(), client.readResponse())
            }
            #expect(head == 200)
            #expect(next?.bodyText == "GET /after 0", "the HEAD's body was read as a request: \(next?.bodyText ?? "none")")
            #expect(seen.locked { $0 } == ["/h \(Self.smuggled.utf8.count)", "/after 0"])
        }
    }

    /// A body over the limit is refused for HEAD as for GET (413 before the body, the connection closed), and the
    /// refusal to a HEAD carries no body.
    @Test(arguments: ["GET", "HEAD"])
    func aHeadRequestOverTheBodyLimitIsRefusedLikeAGet(method: String) async throws {
        let handled = ServerTestFlag<Bool>()
        try await withTestServer({ $0.loops = 1; $0.maxBodyBytes = 1024 }, handler: { request, responder in
            handled.set(true)
            await Self.pathEcho(request, responder)
        }) { _, port in
            let (bytes, closed) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                client.send("\(method) /h HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n")
                return client.readUntilClosed()
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(text)")
            #expect(closed)
            #expect(handled.value == nil)
            if method == "HEAD" { #expect(text.hasSuffix("\r\n\r\n"), "a reply to HEAD carried a body: \(text)") }
        }
    }
}
