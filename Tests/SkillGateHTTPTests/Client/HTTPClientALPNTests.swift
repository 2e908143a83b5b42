import Testing
@testable import SkillGateHTTP

/// HTTP/2 is negotiated through ALPN in the TLS handshake. A loopback listener that records the
/// client's TLS ClientHello (and never answers) shows what the client offers.
@Suite struct HTTPClientALPNTests {
    /// ALPN protocol list entries: length-prefixed names.
    private static let h2 = [UInt8(2)] + Array("h2".utf8)
    private static let http11 = [UInt8(8)] + Array("http/1.1".utf8)

    @Test(arguments: [true, false])
    func clientHelloOffersH2OnlyWhenPreferred(prefersHTTP2: Bool) async throws {
        let recorder = try FirstBytesRecorder()
        let client = ClientTestEnvironment.makeClient(.init(prefersHTTP2: prefersHTTP2))
        let request = HTTPRequest(method: "GET", url: "https://127.0.0.1:\(recorder.port)/",
                                  timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(5), idle: .seconds(5), total: .seconds(10)))
        let error = await #expect(throws: HTTPClientError.self) { _ = try await client.send(request) }
        #expect(error?.kind == .tls, "got \(String(describing: error))")
        let hello = try #require(recorder.bytes)
        #expect(hello.first == 0x16, "not a TLS handshake record")
        #expect(hello.containsRun(Self.http11))
        #expect(hello.containsRun(Self.h2) == prefersHTTP2)
    }
}
