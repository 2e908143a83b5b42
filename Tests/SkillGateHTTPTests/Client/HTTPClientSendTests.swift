#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SkillGateHTTP

@Suite struct HTTPClientSendTests {
    @Test(arguments: ClientEngine.allCases) func returnsStatusHeadersAndBody(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.fixed(headers: [("X-Upstream", "yes")], body: "hello"))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine)
        let response = try await client.send(HTTPRequest(method: "GET", url: server.url("/v1/models")))
        #expect(response.status == 200)
        #expect(response.headers["x-upstream"] == "yes")
        #expect(response.body == Array("hello".utf8))
        #expect(server.requests.first?.target == "/v1/models")
    }

    @Test(arguments: ClientEngine.allCases, [404, 429, 500])
    func returnsNon2xxInsteadOfThrowing(_ engine: ClientEngine, status: Int) async throws {
        let reason = [404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error"][status] ?? ""
        let body = #"{"error":{"message":"nope"}}"#
        let server = try LoopbackServer(.fixed(status: status, reason: reason, body: body))
        defer { server.stop() }
        let response = try await ClientTestEnvironment.makeClient(engine).send(HTTPRequest(url: server.url()))
        #expect(response.status == status)
        #expect(String(decoding: response.body, as: UTF8.self) == body)
    }

    @Test(arguments: ClientEngine.allCases) func postsBodyAndHeadersAndUserAgent(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.echo)
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine, .init(userAgent: "SkillGateTest/9"))
        let payload = Array(#"{"model":"m","messages":[]}"#.utf8)
        let response = try await client.send(HTTPRequest(
            url: server.url("/v1/chat/completions"),
            headers: ["Authorization": "Bearer sk-test", "Content-Type": "application/json"], body: payload))
        #expect(response.body == Array("POST /v1/chat/completions\n".utf8) + payload)
        let seen = try #require(server.requests.first)
        #expect(seen.header("authorization") == "Bearer sk-test")
        #expect(seen.header("content-type") == "application/json")
        #expect(seen.header("user-agent") == "SkillGateTest/9")
        #expect(seen.header("expect") == nil)
    }

    @Test(arguments: ClientEngine.allCases) func customMethodIsSent(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.echo)
        defer { server.stop() }
        let response = try await ClientTestEnvironment.makeClient(engine).send(HTTPRequest(method: "DELETE", url: server.url("/x")))
        #expect(response.body == Array("DELETE /x\n".utf8))
    }

    @Test(arguments: ClientEngine.allCases) func refusedConnectionIsConnectError(_ engine: ClientEngine) async throws {
        // Bound but not listening: connects are refused, and no other test can take the port meanwhile
        // (a stopped LoopbackServer's port could be queued on its closing listener, or reused).
        let (fd, port) = try LoopbackSocket.refusingPort()
        defer { close(fd) }
        let url = "http://127.0.0.1:\(port)/"
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await ClientTestEnvironment.makeClient(engine).send(HTTPRequest(method: "GET", url: url))
        }
        #expect(error?.kind == .connect)
    }

    @Test(arguments: ["not a url", "ftp://127.0.0.1/file", ""])
    func invalidURLIsInvalidRequest(url: String) async throws {
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await ClientTestEnvironment.makeClient().send(HTTPRequest(method: "GET", url: url))
        }
        #expect(error?.kind == .invalidRequest, "got \(String(describing: error))")
    }

    /// A field that could split the request head: a line break or NUL in a value, a colon, line break or NUL in a
    /// name (a small inline `String` and a long heap one alike).
    static let headBreakingFields: [(String, String)] = [
        ("X-Evil", "a\r\nInjected: 1"), ("X-Evil", "a\nb"), ("X-Evil", "a\u{0}b"),
        ("X-Evil", String(repeating: "v", count: 64) + "\r"), ("X:Evil", "v"), ("X-Ev\nil", "v"), ("X\u{0}", "v"),
    ]

    @Test(arguments: ClientEngine.allCases, headBreakingFields)
    func headerWithLineBreakIsRejected(_ engine: ClientEngine, _ field: (String, String)) async throws {
        let server = try LoopbackServer(.fixed())
        defer { server.stop() }
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await ClientTestEnvironment.makeClient(engine).send(HTTPRequest(url: server.url(), headers: HTTPHeaders([field])))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: ClientEngine.allCases) func bodyOverMaxResponseBytesFails(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.bulk(totalBytes: 200_000))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine, .init(maxResponseBytes: 50_000))
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await client.send(HTTPRequest(method: "GET", url: server.url()))
        }
        #expect(error?.detail.contains("maxResponseBytes") == true)
        #expect(error?.kind == .responseTooLarge)
    }

    @Test(arguments: ClientEngine.allCases) func shutdownIsIdempotentAndFailsLaterRequests(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.fixed())
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine)
        _ = try await client.send(HTTPRequest(method: "GET", url: server.url()))
        client.shutdown()
        #expect(await server.firstPeerClose(within: .seconds(5)) != nil, "the pooled connection stayed open after shutdown")
        client.shutdown()
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await client.send(HTTPRequest(method: "GET", url: server.url()))
        }
        #expect(error?.kind == .cancelled)
    }
}
