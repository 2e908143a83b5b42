import Foundation
import SkillGateHTTP
import Testing

/// `HTTPRequest.httpVersion` reaches the wire: HTTP/2 with prior knowledge opens a cleartext connection with the
/// HTTP/2 preface, HTTP/1.1 with a request line. The recorder answers nothing, so the requests end in errors.
@Suite struct HTTPClientVersionTests {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    @Test(arguments: [(HTTPVersion.http2PriorKnowledge, true), (.http1, false), (.negotiated, false)])
    func theVersionDecidesTheFirstBytes(version: HTTPVersion, expectsPreface: Bool) async throws {
        let recorder = try FirstBytesRecorder()
        let client = ClientTestEnvironment.makeClient(.init())
        var request = HTTPRequest(method: "POST", url: "http://127.0.0.1:\(recorder.port)/v1/chat/completions", body: Array("{}".utf8),
                                  timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(2), idle: .seconds(2), total: .seconds(5)))
        request.httpVersion = version
        _ = try? await client.send(request)
        let bytes = try #require(recorder.bytes)
        #expect(bytes.starts(with: Self.preface) == expectsPreface)
        if !expectsPreface { #expect(bytes.starts(with: Array("POST /v1/chat/completions HTTP/1.1\r\n".utf8))) }
    }
}
