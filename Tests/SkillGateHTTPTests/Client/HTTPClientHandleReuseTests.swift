import Testing
@testable import SkillGateHTTP

/// Easy handles are reused without `curl_easy_reset`: every per-request option must be set again,
/// so nothing of one request (method, body, headers, user agent, pin) leaks into the next one on
/// the same handle. `maxConnections: 1` keeps exactly one handle in the pool.
@Suite struct HTTPClientHandleReuseTests {
    /// Like `.echo`, but a HEAD gets the head alone (with the length the body would have).
    private static let echoHeadAware = LoopbackHandler { request, connection in
        let body = Array("\(request.method) \(request.target)\n".utf8) + request.body
        connection.write(LoopbackHandler.responseHead(status: 200, reason: "OK", headers: [("Content-Length", "\(body.count)")]))
        if request.method != "HEAD" { connection.write(body) }
    }

    @Test func aRecycledHandleCarriesNothingFromTheRequestBefore() async throws {
        let server = try LoopbackServer(Self.echoHeadAware)
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(.init(maxConnections: 1, userAgent: "SkillGateTest/reuse"))
        func text(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }

        let post = try await client.send(HTTPRequest(url: server.url("/a"),
            headers: ["X-Only-First": "1", "User-Agent": "Custom/1"], body: Array("first".utf8)))
        #expect(text(post) == "POST /a\nfirst")
        let put = try await client.send(HTTPRequest(method: "PUT", url: server.url("/b"), body: Array("second".utf8)))
        #expect(text(put) == "PUT /b\nsecond")
        let get = try await client.send(HTTPRequest(method: "GET", url: server.url("/c")))
        #expect(text(get) == "GET /c\n")
        let head = try await client.send(HTTPRequest(method: "HEAD", url: server.url("/d")))
        #expect(head.status == 200 && head.body.isEmpty)
        let getAgain = try await client.send(HTTPRequest(method: "GET", url: server.url("/e")))
        #expect(text(getAgain) == "GET /e\n")

        let seen = server.requests
        #expect(seen.map(\.method) == ["POST", "PUT", "GET", "HEAD", "GET"])
        #expect(seen.map(\.target) == ["/a", "/b", "/c", "/d", "/e"])
        #expect(seen[0].header("user-agent") == "Custom/1")
        for later in seen.dropFirst() {
            #expect(later.header("x-only-first") == nil, "\(later.method) \(later.target) carried a header of the first request")
            #expect(later.header("user-agent") == "SkillGateTest/reuse")
        }
        for bodiless in seen[2...] {
            #expect(bodiless.body.isEmpty && bodiless.header("content-length") == nil,
                    "\(bodiless.method) \(bodiless.target) carried a body of an earlier request")
        }
        #expect(server.acceptedConnections == 1)
    }

    @Test func aPinDoesNotOutliveItsRequest() async throws {
        let server = try LoopbackServer(.fixed(body: "pinned"))
        defer { server.stop() }
        _ = try ClientTestEnvironment.proxy.get()
        let client = ClientTestEnvironment.makeClient(.init(maxConnections: 1))
        let pinnedHost = "skillgate-reuse-pin.invalid"
        let pinned = try await client.send(HTTPRequest(method: "GET", url: "http://\(pinnedHost):\(server.port)/x",
            pin: HTTPAddressPin(host: pinnedHost, port: server.port, addresses: ["127.0.0.1"])))
        #expect(String(decoding: pinned.body, as: UTF8.self) == "pinned")
        // The next request on the same handle must use the proxy again (NOPROXY "*" was the pin's).
        let proxied = try await client.send(HTTPRequest(method: "GET", url: "http://\(ClientTestEnvironment.proxyOnlyHost)/y"))
        #expect(String(decoding: proxied.body, as: UTF8.self) == "GET http://\(ClientTestEnvironment.proxyOnlyHost)/y\n")
    }
}
