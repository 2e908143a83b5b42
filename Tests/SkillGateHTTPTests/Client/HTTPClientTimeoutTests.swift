import Testing
@testable import SkillGateHTTP
import SkillGateTestSupport

/// Each timeout maps to its own `HTTPClientError.Kind`, against a loopback server that misbehaves accordingly.
@Suite struct HTTPClientTimeoutTests {
    private func timeouts(connect: Int? = nil, firstByte: Int? = nil, idle: Int? = nil, total: Int? = nil, head: Int? = nil) -> HTTPTimeouts {
        HTTPTimeouts(connect: connect.map { .milliseconds($0) } ?? .seconds(10),
                     firstByte: firstByte.map { .milliseconds($0) } ?? .seconds(10),
                     idle: idle.map { .milliseconds($0) } ?? .seconds(10),
                     total: total.map { .milliseconds($0) } ?? .seconds(30),
                     head: head.map { .milliseconds($0) })
    }

    /// `maxMs` stays well under the untouched defaults (10 s, 30 s), so it proves the configured timeout fired,
    /// with room for a loaded machine running the suites in parallel.
    private func expectFailure(_ kind: HTTPClientError.Kind, within maxMs: Double, _ body: () async throws -> Void) async {
        let started = LoopbackSocket.now()
        let error = await #expect(throws: HTTPClientError.self) { try await body() }
        #expect(error?.kind == kind, "got \(String(describing: error))")
        #expect(millisecondsBetween(started, LoopbackSocket.now()) < maxMs)
    }

    @Test(arguments: ClientEngine.allCases) func connectTimeout(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let listener = try SaturatedListener()
            let request = HTTPRequest(method: "GET", url: "http://127.0.0.1:\(listener.port)/", timeouts: timeouts(connect: 200))
            await expectFailure(.connectTimeout, within: 5_000) {
                _ = try await ClientTestEnvironment.makeClient(engine).send(request)
            }
            withExtendedLifetime(listener) {}
        }
    }

    @Test(arguments: ClientEngine.allCases) func firstByteTimeout(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.delayedHead(3_000))
            defer { server.stop() }
            let request = HTTPRequest(method: "GET", url: server.url(), timeouts: timeouts(firstByte: 200))
            await expectFailure(.firstByteTimeout, within: 5_000) {
                _ = try await ClientTestEnvironment.makeClient(engine).stream(request)
            }
            #expect(await server.firstPeerClose(within: .seconds(5)) != nil)
        }
    }

    @Test(arguments: ClientEngine.allCases) func idleTimeoutWhileStreaming(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.stallMidBody(firstPart: "data: partial\n\n", declaredLength: 1_000))
            defer { server.stop() }
            let request = HTTPRequest(method: "GET", url: server.url(), timeouts: timeouts(idle: 200))
            let response = try await ClientTestEnvironment.makeClient(engine).stream(request)
            var iterator = response.body.makeAsyncIterator()
            #expect(try await iterator.next() == Array("data: partial\n\n".utf8))
            await expectFailure(.idleTimeout, within: 5_000) {
                _ = try await iterator.next()
            }
        }
    }

    /// The loop looks at deadlines only when its timer fires or a deadline may have moved earlier (decision 0037): a
    /// head arriving after the first look starts the idle clock, which must be enforced at once, not when the long
    /// first-byte deadline armed before it comes due.
    @Test(arguments: ClientEngine.allCases) func idleTimeoutStartsWhenALateHeadArrives(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.delayedHead(1_500, then: .stallMidBody(firstPart: "data: partial\n\n", declaredLength: 1_000)))
            defer { server.stop() }
            let request = HTTPRequest(method: "GET", url: server.url(), timeouts: timeouts(firstByte: 20_000, idle: 300))
            let started = LoopbackSocket.now()
            let response = try await ClientTestEnvironment.makeClient(engine).stream(request)
            var iterator = response.body.makeAsyncIterator()
            #expect(try await iterator.next() == Array("data: partial\n\n".utf8))
            await expectFailure(.idleTimeout, within: 8_000) {
                _ = try await iterator.next()
            }
            #expect(millisecondsBetween(started, LoopbackSocket.now()) < 9_000, "the idle timeout waited for the first-byte deadline")
        }
    }

    @Test(arguments: ClientEngine.allCases) func idleTimeoutInSend(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.stallMidBody(firstPart: "{\"partial\":", declaredLength: 1_000))
            defer { server.stop() }
            let request = HTTPRequest(method: "GET", url: server.url(), timeouts: timeouts(idle: 200))
            await expectFailure(.idleTimeout, within: 5_000) {
                _ = try await ClientTestEnvironment.makeClient(engine).send(request)
            }
        }
    }

    @Test(arguments: ClientEngine.allCases) func totalTimeoutWhileBodyKeepsFlowing(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.drip(intervalMs: 30))
            defer { server.stop() }
            // Chunks every 30 ms never trip the 200 ms idle timeout; the 400 ms total does.
            let request = HTTPRequest(method: "GET", url: server.url(), timeouts: timeouts(idle: 200, total: 400))
            await expectFailure(.totalTimeout, within: 5_000) {
                let response = try await ClientTestEnvironment.makeClient(engine).stream(request)
                for try await _ in response.body {}
            }
        }
    }

    /// The head timeout counts from the call, the wait for a pooled connection included: while the only connection
    /// serves a slow answer, a queued request ends at its head timeout as not sent (the upstream never sees it). Without
    /// it, the queued request's first-byte clock would not start until the connection came free (8 s here).
    @Test(arguments: ClientEngine.allCases) func headTimeoutCountsTheWaitForAConnection(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.delayedHead(8_000))
            defer { server.stop() }
            let client = ClientTestEnvironment.makeClient(engine, .init(maxConnections: 1))
            // A child task, so it runs on this test's own thread too (an unstructured one would wait for a pool
            // thread, which a loaded parallel run may not give it for seconds); cancelled when the scope ends.
            async let _ = client.send(HTTPRequest(method: "GET", url: server.url("/held")))
            let asked = LoopbackSocket.now()
            while server.requests.isEmpty, millisecondsBetween(asked, LoopbackSocket.now()) < 30_000 {
                try await Task.sleep(for: .milliseconds(5))  // suspends, so the child task gets this thread
            }
            #expect(server.requests.map(\.target) == ["/held"], "the first request holds the one connection")
            let queued = HTTPRequest(method: "GET", url: server.url("/queued"), timeouts: timeouts(head: 300))
            await expectFailure(.connectionWaitTimeout, within: 5_000) { _ = try await client.send(queued) }
            #expect(!server.requests.contains { $0.target == "/queued" }, "the request went out")
        }
    }

    /// A connection being made when the head timeout comes is not a wait for a pooled connection (decision 0171): the
    /// upstream is slow to accept, which is its failure, where a queued call's is the client's own queue.
    @Test(arguments: ClientEngine.allCases) func headTimeoutWhileConnectingIsNotAWaitForAConnection(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let listener = try SaturatedListener()
            let request = HTTPRequest(method: "GET", url: "http://127.0.0.1:\(listener.port)/", timeouts: timeouts(connect: 10_000, head: 300))
            await expectFailure(.headTimeoutWhileConnecting, within: 5_000) {
                _ = try await ClientTestEnvironment.makeClient(engine).send(request)
            }
            withExtendedLifetime(listener) {}
        }
    }

    /// Once the request went out, the head timeout ends it as a first-byte timeout, before the longer `firstByte`.
    @Test(arguments: ClientEngine.allCases) func headTimeoutAfterSendingIsAFirstByteTimeout(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.delayedHead(8_000))
            defer { server.stop() }
            let request = HTTPRequest(method: "GET", url: server.url(), timeouts: timeouts(head: 300))
            await expectFailure(.firstByteTimeout, within: 5_000) {
                _ = try await ClientTestEnvironment.makeClient(engine).send(request)
            }
        }
    }
}
