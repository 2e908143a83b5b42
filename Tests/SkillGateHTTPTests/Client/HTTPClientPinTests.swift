import Testing
@testable import SkillGateHTTP

/// `HTTPRequest.pin`: libcurl connects to the pinned address instead of resolving the host, and
/// bypasses the proxy (the test environment routes every other host through a proxy stand-in).
@Suite struct HTTPClientPinTests {
    @Test(arguments: ClientEngine.allCases) func connectsToThePinnedAddressWithoutResolvingOrProxying(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.fixed(body: "pinned"))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine)
        let host = "skillgate-pin-test.invalid"
        let request = HTTPRequest(method: "GET", url: "http://\(host):\(server.port)/x",
                                  pin: HTTPAddressPin(host: host, port: server.port, addresses: ["127.0.0.1"]))
        let response = try await client.send(request)
        #expect(response.body == Array("pinned".utf8))
        #expect(server.requests.first?.target == "/x")
        #expect(server.requests.first?.header("Host") == "\(host):\(server.port)")
    }

    @Test func curlEntryBracketsIPv6() {
        #expect(HTTPAddressPin(host: "a.test", port: 443, addresses: ["::1", "10.0.0.1"]).curlEntry == "a.test:443:[::1],10.0.0.1")
    }
}
