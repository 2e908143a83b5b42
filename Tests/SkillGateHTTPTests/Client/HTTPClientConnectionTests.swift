import CCurl
import Testing
@testable import SkillGateHTTP

@Suite struct HTTPClientConnectionTests {
    @Test(arguments: ClientEngine.allCases) func sequentialRequestsReuseOneConnection(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.fixed(body: "pong"))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine)
        for _ in 0..<20 {
            #expect(try await client.send(HTTPRequest(method: "GET", url: server.url())).body == Array("pong".utf8))
        }
        #expect(server.acceptedConnections == 1)
    }

    /// A kept-alive connection idle for longer than `maxIdleConnectionAge` is closed, not reused (a middlebox may have
    /// forgotten it). (Reuse within the age is `sequentialRequestsReuseOneConnection`, at the default age: a short age
    /// cannot be asserted there, because a busy machine may leave the test's task unscheduled for longer.) libcurl
    /// counts the age in whole seconds.
    @Test(arguments: ClientEngine.allCases) func aConnectionIdleTooLongIsReplaced(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.fixed())
        defer { server.stop() }
        let age: Duration = engine == .libcurl ? .seconds(1) : .milliseconds(100)
        let client = ClientTestEnvironment.makeClient(engine, .init(maxIdleConnectionAge: age))
        #expect(try await client.send(HTTPRequest(method: "GET", url: server.url())).status == 200)
        try await Task.sleep(for: age * 2.5)
        #expect(try await client.send(HTTPRequest(method: "GET", url: server.url())).status == 200)
        #expect(server.acceptedConnections == 2)
    }

    @Test(arguments: ClientEngine.allCases) func hundredConcurrentRequestsStayWithinThePool(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.delayedHead(5, then: .fixed(body: "pong")))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine, .init(maxConnections: 4))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<100 {
                group.addTask { try await client.send(HTTPRequest(method: "GET", url: server.url("/\(i)"))).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 100)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(server.requests.count == 100)
        #expect(server.acceptedConnections <= 4, "opened \(server.acceptedConnections) connections for a pool of 4")
        #expect(server.acceptedConnections >= 2, "requests were not spread over the pool")
    }

    /// libcurl honours `http_proxy` from the environment (set once for this test target, see
    /// `ClientTestEnvironment`): the request for an unresolvable host succeeds only through the
    /// loopback proxy, which receives it in absolute form.
    @Test(arguments: ClientEngine.allCases) func requestGoesThroughProxyFromEnvironment(_ engine: ClientEngine) async throws {
        let proxy = try ClientTestEnvironment.proxy.get()
        let host = ClientTestEnvironment.proxyOnlyHost
        let response = try await ClientTestEnvironment.makeClient(engine).send(HTTPRequest(method: "GET", url: "http://\(host)/v1/models"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "GET http://\(host)/v1/models\n")
        #expect(proxy.requests.contains { $0.target == "http://\(host)/v1/models" && $0.header("host") == host })
    }

    /// `HTTPS_PROXY` from the environment: an https:// request opens a CONNECT tunnel through the
    /// loopback proxy (which then drops the tunnel, so the TLS handshake fails).
    @Test(arguments: ClientEngine.allCases) func httpsRequestTunnelsThroughProxyFromEnvironment(_ engine: ClientEngine) async throws {
        let proxy = try ClientTestEnvironment.proxy.get()
        let host = ClientTestEnvironment.proxyOnlyHost
        let request = HTTPRequest(method: "GET", url: "https://\(host)/v1/models",
                                  timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(5), idle: .seconds(5), total: .seconds(10)))
        let error = await #expect(throws: HTTPClientError.self) { _ = try await ClientTestEnvironment.makeClient(engine).send(request) }
        #expect(error?.kind == .tls || error?.kind == .transport, "got \(String(describing: error))")
        #expect(proxy.requests.contains { $0.method == "CONNECT" && $0.target == "\(host):443" })
    }

    @Test func libcurlOffersHTTP2AndTLS() {
        let info = libcurlFeatures()
        #expect(info.http2, "libcurl was built without HTTP/2; install a libcurl4 with nghttp2")
        #expect(info.ssl, "libcurl was built without TLS")
    }
}

private func libcurlFeatures() -> (http2: Bool, ssl: Bool) {
    guard let info = curl_version_info(CURLVERSION_TENTH) else { return (false, false) }
    let features = info.pointee.features
    return (features & CURL_VERSION_HTTP2 != 0, features & CURL_VERSION_SSL != 0)
}
