import Foundation
import SkillGateHTTP
import Testing

/// `HTTPRequest.httpVersion` reaches the wire: with `.http1` a TLS connection offers only HTTP/1.1 in its ALPN
/// list, with `.negotiated` it offers h2 too. The recorder answers nothing, so the requests end in errors.
@Suite struct HTTPClientVersionTests {
    static let h2 = Array("\u{02}h2".utf8)

    @Test(arguments: [(HTTPVersion.http1, false), (.negotiated, true)])
    func theVersionDecidesWhatALPNOffers(version: HTTPVersion, offersH2: Bool) async throws {
        let recorder = try FirstBytesRecorder()
        let client = ClientTestEnvironment.makeClient(.init(prefersHTTP2: true))
        var request = HTTPRequest(method: "GET", url: "https://127.0.0.1:\(recorder.port)/",
                                  timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(2), idle: .seconds(2), total: .seconds(5)))
        request.httpVersion = version
        _ = try? await client.send(request)
        let hello = try #require(recorder.bytes)
        #expect(hello.first == 0x16, "not a TLS handshake record")
        #expect(hello.containsRun(Self.h2) == offersH2)
    }
}
