import Foundation
import SkillGateHTTP
import Testing

/// A HEAD request answered by a handler that streams (an endless SSE tail such as the admin API's traffic): the reply is
/// whole once its head is written (RFC 9110 §9.3.2), so the connection goes on to its next request, an HTTP/1.0 client's
/// connection closes, and the handler's writes fail so it stops (decision 0137). Before, the server dropped the chunks
/// but waited for the stream's end: a pipelined request behind the HEAD was never answered, an HTTP/1.0 client that was
/// told `Connection: close` waited for a close that never came, and the handler streamed into nothing for ever.
@Suite("HTTPServer HEAD on a stream")
struct HTTPServerHeadStreamTests {
    /// Streams a chunk every 20 ms until a write fails (the client left, or the reply is done); then records the end.
    static func endlessStream(ended: ServerTestFlag<Bool>) -> @Sendable (HTTPServerRequest, HTTPResponder) async -> Void {
        { request, responder in
            guard request.path == "/tail" else {
                responder.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Array("\(request.method) \(request.path)".utf8))
                return
            }
            do {
                try await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
                while true {
                    try await responder.write(Array(": tick\n\n".utf8))
                    try await Task.sleep(for: .milliseconds(20))
                }
            } catch {
                ended.set(true)
            }
            responder.end()
        }
    }

    @Test func aPipelinedRequestBehindAHeadOnAStreamIsAnswered() async throws {
        let ended = ServerTestFlag<Bool>()
        try await withTestServer(handler: Self.endlessStream(ended: ended)) { _, port in
            let (head, next) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                client.send("HEAD /tail HTTP/1.1\r\nHost: x\r\n\r\n" + rawGET("/after"))
                return (client.readResponseHead(), client.readResponse())
            }
            #expect(head == 200)
            #expect(next?.bodyText == "GET /after", "the request behind the HEAD was not answered")
            #expect(await ended.wait(upTo: .seconds(10)) == true, "the stream's handler went on writing into nothing")
        }
    }

    @Test func anHTTP10HeadOnAStreamIsAnsweredThenClosed() async throws {
        let ended = ServerTestFlag<Bool>()
        try await withTestServer(handler: Self.endlessStream(ended: ended)) { _, port in
            let (head, rest) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                client.send("HEAD /tail HTTP/1.0\r\n\r\n")
                return (client.readResponseHead(), client.readUntilClosed())
            }
            #expect(head == 200)
            #expect(rest.closed, "the connection stayed open after the HEAD reply's head")
            #expect(rest.bytes.isEmpty, "a HEAD reply carried body bytes: \(String(decoding: rest.bytes, as: UTF8.self))")
            #expect(await ended.wait(upTo: .seconds(10)) == true)
        }
    }
}
