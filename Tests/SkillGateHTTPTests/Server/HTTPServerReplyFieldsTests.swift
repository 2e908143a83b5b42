@testable import SkillGateHTTP
import Glibc
import Testing

/// `Configuration.replyFields` adds the fields it chose from a request's head to every answer to that request: whole
/// replies, streams (started plainly or with a head written ahead), a `headGate` refusal, the server's own errors once
/// the head is read, and a handler that sent nothing; and to no answer of a later request on the same connection.
@Suite struct HTTPServerReplyFieldsTests {
    /// A request with `x-page: <v>` gets `x-seen-page: <v>` on its answers; `/refused` is refused by the gate.
    static func configure(_ c: inout HTTPServer.Configuration) {
        c.replyFields = { head in head.headers["x-page"].map { ["x-seen-page": $0, "vary": "X-Page"] } }
        c.headGate = { head in
            head.path == "/refused" ? .reject(status: 401, headers: ["x-why": "gate"], body: Array("no".utf8)) : .acceptWithBodyLimit(10)
        }
        c.loops = 1
    }

    static let handler: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { request, responder in
        switch request.path {
        case "/stream":
            try? await responder.startStream(status: 200, headers: ["content-type": "text/plain"])
            try? await responder.write(Array("ok".utf8))
            responder.end()
        case "/prepared":
            responder.prepareStreamHead { ["content-type": "text/plain"] }
            try? await Task.sleep(for: .milliseconds(20))
            try? await responder.startPreparedStream(status: 200)
            try? await responder.write(Array("ok".utf8))
            responder.end()
        case "/silent":
            return   // the server answers 500 itself
        default:
            responder.respond(status: 200, headers: ["x-handler": "yes"], body: Array("ok".utf8))
        }
    }

    static func answer(_ request: String) async throws -> RawHTTPResponse? {
        try await withTestServer(configure, handler: handler) { _, port in
            try await RawHTTPClient.blocking {
                let raw = try RawHTTPClient(port: port, receiveTimeout: 10)
                raw.send(request)
                return raw.readResponse()
            }
        }
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: x\r\nX-Page: a\r\n\r\n", 200),
        ("GET /stream HTTP/1.1\r\nHost: x\r\nX-Page: a\r\n\r\n", 200),
        ("GET /prepared HTTP/1.1\r\nHost: x\r\nX-Page: a\r\n\r\n", 200),
        ("GET /silent HTTP/1.1\r\nHost: x\r\nX-Page: a\r\n\r\n", 500),
        ("POST /refused HTTP/1.1\r\nHost: x\r\nX-Page: a\r\nContent-Length: 5\r\n\r\nhello", 401),
        ("POST / HTTP/1.1\r\nHost: x\r\nX-Page: a\r\nContent-Length: 50\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: x\r\nX-Page: a\r\nExpect: something\r\n\r\n", 417),
    ])
    func everyAnswerToTheRequestCarriesTheFields(request: String, status: Int) async throws {
        let response = try await Self.answer(request)
        #expect(response?.status == status)
        #expect(response?.header("x-seen-page") == "a")
        #expect(response?.header("vary") == "X-Page")
    }

    @Test func aRequestTheyDoNotChooseForGetsNone() async throws {
        let response = try await Self.answer("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response?.status == 200)
        #expect(response?.header("x-seen-page") == nil && response?.header("vary") == nil)
        #expect(response?.header("x-handler") == "yes")
    }

    /// A refusal for a head the server could not read (no fields were chosen for it) carries none, even after a request
    /// on the same connection that had some.
    @Test func theNextRequestOnTheConnectionStartsWithout() async throws {
        let (first, second, third) = try await withTestServer(Self.configure, handler: Self.handler) { _, port in
            try await RawHTTPClient.blocking {
                let raw = try RawHTTPClient(port: port, receiveTimeout: 10)
                raw.send("GET /stream HTTP/1.1\r\nHost: x\r\nX-Page: a\r\n\r\n")
                let first = raw.readResponse()
                raw.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                let second = raw.readResponse()
                raw.send("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Long: \(String(repeating: "b", count: 1000))\r\n", count: 70) + "\r\n")
                return (first, second, raw.readResponse())
            }
        }
        #expect(first?.header("x-seen-page") == "a")
        #expect(second?.status == 200 && second?.header("x-seen-page") == nil)
        #expect(third?.status == 431 && third?.header("x-seen-page") == nil)
    }
}
