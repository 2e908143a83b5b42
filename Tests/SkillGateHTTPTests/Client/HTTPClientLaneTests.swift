import Foundation
@testable import SkillGateHTTP
import SkillGateTestSupport
import Synchronization
import Testing

/// Lanes (decision 0035): a request made by a handler running on an `HTTPServer` event loop runs on that loop's own
/// libcurl multi handle, with no thread hand-off; requests made elsewhere use the client's own thread. These tests pin
/// down where a transfer runs and how a lane's transfers end when the server stops, the client is released or shut
/// down, or the consuming task moves to another thread.
@Suite struct HTTPClientLaneTests {
    private static func threadName() -> String { Thread.current.name ?? "" }

    /// What the handler under test saw: its thread before and after the upstream call, and the call's outcome.
    private struct Seen: Sendable {
        var threads: [String] = []
        var body: String?
        var error: HTTPClientError?
    }

    /// `GET /` from a raw client on a thread of its own (a long timeout: parallel runs can be slow).
    private static func get(port: Int) async throws -> RawHTTPResponse? {
        try await RawHTTPClient.blocking {
            let raw = try RawHTTPClient(port: port, receiveTimeout: 30)
            raw.send(rawGET("/"))
            return raw.readResponse()
        }
    }

    /// Records how `transfer` ended: "answered", its `HTTPClientError`, or an unexpected error.
    private static func recordOutcome(into seen: ServerTestFlag<Seen>, of transfer: () async throws -> Void) async {
        do {
            try await transfer()
            seen.set(Seen(body: "answered"))
        } catch let error as HTTPClientError {
            seen.set(Seen(error: error))
        } catch {
            seen.set(Seen(body: "unexpected \(error)"))
        }
    }

    /// A handler's work in the tests that end a lane's transfer early: GET `url` upstream, record how it ended, 502.
    private static func sendRecordingOutcome(_ client: HTTPClient, _ url: String, into seen: ServerTestFlag<Seen>,
                                             _ responder: HTTPResponder) async {
        await recordOutcome(into: seen) { _ = try await client.send(HTTPRequest(method: "GET", url: url)) }
        responder.respond(status: 502, headers: [:], body: [])
    }

    @Test func aHandlersUpstreamRequestRunsOnTheHandlersEventLoop() async throws {
        let upstream = try LoopbackServer(.fixed(body: "from upstream"))
        defer { upstream.stop() }
        let client = ClientTestEnvironment.makeClient()
        let seen = ServerTestFlag<Seen>()
        try await withTestServer(handler: { _, responder in
            let before = Self.threadName()
            let answer = try? await client.send(HTTPRequest(method: "GET", url: upstream.url()))
            seen.set(Seen(threads: [before, Self.threadName()], body: answer.map { String(decoding: $0.body, as: UTF8.self) }))
            responder.respond(status: 200, headers: [:], body: answer?.body ?? [])
        }) { _, port in
            let response = try await Self.get(port: port)
            #expect(response?.bodyText == "from upstream")
        }
        let handler = try #require(await seen.wait())
        #expect(handler.body == "from upstream")
        #expect(handler.threads[0].hasPrefix("sg-http-"), "handler ran on \(handler.threads[0])")
        #expect(handler.threads[1] == handler.threads[0], "handler resumed on \(handler.threads[1]), not its loop")
        #expect(client.transfersOnServerEventLoops == 1)

        // Off the server's loops the client's own thread serves the request, and it is not counted as a lane's.
        let direct = try await client.send(HTTPRequest(method: "GET", url: upstream.url()))
        #expect(String(decoding: direct.body, as: UTF8.self) == "from upstream")
        #expect(client.transfersOnServerEventLoops == 1)
    }

    @Test func clientsThatOptOutUseTheirOwnThreadFromAHandler() async throws {
        let upstream = try LoopbackServer(.fixed(body: "own thread"))
        defer { upstream.stop() }
        var configuration = HTTPClient.Configuration()
        configuration.usesServerEventLoops = false
        let client = ClientTestEnvironment.makeClient(configuration)
        try await withTestServer(handler: { _, responder in
            let answer = try? await client.send(HTTPRequest(method: "GET", url: upstream.url()))
            responder.respond(status: answer == nil ? 502 : 200, headers: [:], body: answer?.body ?? [])
        }) { _, port in
            let response = try await Self.get(port: port)
            #expect(response?.bodyText == "own thread")
        }
        #expect(client.transfersOnServerEventLoops == 0)
    }

    /// A handler that GETs `upstream` and answers with its body (or 502 when the call failed).
    private static func relaying(_ client: HTTPClient, _ upstream: LoopbackServer) -> @Sendable (HTTPServerRequest, HTTPResponder) async -> Void {
        { _, responder in
            let answer = try? await client.send(HTTPRequest(method: "GET", url: upstream.url()))
            responder.respond(status: answer == nil ? 502 : 200, headers: [:], body: answer?.body ?? [])
        }
    }

    /// A pooled connection's socket stays registered on its lane between transfers (decision 0042): one after another,
    /// requests whose answers come late enough for libcurl to watch the socket are all answered on one upstream
    /// connection, and every transfer after the first takes the registration back without a system call. (libcurl's
    /// sockets only: the own HTTP/1.1 client's stay watched by their own events.)
    @Test func sequentialTransfersTakeTheirSocketsRegistrationBack() async throws {
        // 50 ms, not 5: with the whole suite running in parallel a loop can stall for more than 5 ms between sending a
        // request and libcurl's asking to watch its socket, and an answer already there is read without the socket
        // being parked (one stress iteration in twenty saw 3 reuses of 4).
        let upstream = try LoopbackServer(.delayedHead(50, then: .fixed(body: "late")))
        defer { upstream.stop() }
        let client = ClientTestEnvironment.makeClient(.init(usesOwnHTTP1Client: false))
        try await withTestServer({ $0.loops = 1 }, handler: Self.relaying(client, upstream)) { _, port in
            for _ in 0..<5 {
                let response = try await Self.get(port: port)
                #expect(response?.bodyText == "late")
            }
        }
        #expect(upstream.acceptedConnections == 1)
        #expect(client.transfersOnServerEventLoops == 5)
        #expect(client.laneSocketsReused == 4)
    }

    /// An upstream that closes each pooled connection soon after answering: the closed socket, parked on the lane,
    /// becomes readable with nobody watching it; the lane drops it, and every next request is answered on a new
    /// connection (whose descriptor may get the closed one's number) instead of stalling.
    @Test func aParkedSocketTheUpstreamClosesIsDroppedAndTheNextRequestIsAnswered() async throws {
        let closing = LoopbackHandler { request, connection in
            guard connection.pause(milliseconds: 5) else { return }
            LoopbackHandler.fixed(body: "then closed").respond(request, connection)
            _ = connection.pause(milliseconds: 20)
            connection.closeAfterResponse()
        }
        let upstream = try LoopbackServer(closing)
        defer { upstream.stop() }
        let client = ClientTestEnvironment.makeClient()
        try await withTestServer({ $0.loops = 1 }, handler: Self.relaying(client, upstream)) { _, port in
            for _ in 0..<4 {
                let response = try await Self.get(port: port)
                #expect(response?.status == 200)
                #expect(response?.bodyText == "then closed")
                try await Task.sleep(for: .milliseconds(80))   // the upstream closes meanwhile
            }
        }
        #expect(upstream.acceptedConnections == 4)
        #expect(client.transfersOnServerEventLoops == 4)
    }

    @Test func stoppingTheServerFailsTheLanesTransfersInFlight() async throws {
        let upstream = try LoopbackServer(.delayedHead(60_000))
        defer { upstream.stop() }
        let client = ClientTestEnvironment.makeClient()
        let seen = ServerTestFlag<Seen>()
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, loops: 1)
        keepIdleConnectionsOpen(&configuration)
        let server = try HTTPServer(configuration: configuration, handler: ServerTestHandler { _, responder in
            // On the handler's loop, but out of reach of its cancellation: a drain that times out cuts the handler off
            // and cancels it before the loop stops (decision 0137), and this test is about the transfer the stop ends.
            guard let loop = CurrentEventLoop.loop else { return responder.respond(status: 500, headers: [:], body: []) }
            await Task(executorPreference: loop) { await Self.sendRecordingOutcome(client, upstream.url(), into: seen, responder) }.value
        })
        try server.start()
        let port = server.boundPort
        // The caller starts on a thread of its own: a `Task` would first wait for a pool thread, which the tests running
        // in parallel can keep busy for longer than the wait below.
        try await onOwnThread {
            async let caller = Self.get(port: port)?.status
            #expect(await serverSettles { !upstream.requests.isEmpty }, "the handler's request never reached the upstream")
            #expect(client.transfersOnServerEventLoops == 1)

            // The handler is still waiting for the upstream's head, so the drain times out and the loop stops under it.
            let clean = await server.shutdown(deadline: .milliseconds(200))
            #expect(!clean)
            let outcome = try #require(await seen.wait(), "the handler's request never ended after the server stopped")
            #expect(outcome.error?.kind == .cancelled)
            #expect(outcome.error?.detail.contains("server event loop") == true, "\(String(describing: outcome.error))")
            #expect(await upstream.firstPeerClose(within: .seconds(10)) != nil, "the lane left its upstream connection open")
            _ = try? await caller
        }
    }

    /// A transfer submitted in the loop turn the server stops in is still in its lane's queue when the lane detaches (as
    /// `stopCurlLanes` does while the loop exits): it must fail, or the task awaiting it waits forever, and the queue
    /// would keep the lane alive through the transfer's control (LeakSanitizer found the cycle).
    @Test func aTransferStillQueuedWhenItsLaneStopsFails() async throws {
        let client = ClientTestEnvironment.makeClient()
        let seen = ServerTestFlag<Seen>()
        try await withTestServer(handler: { _, responder in
            guard let lane = CurrentEventLoop.loop?.curlLane(for: client) else {
                seen.set(Seen(body: "no lane on this loop"))
                return responder.respond(status: 500, headers: [:], body: [])
            }
            await Self.recordOutcome(into: seen) {
                _ = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                    // Queued (its wake-up pending), then the lane stops before the loop runs it.
                    lane.start(TransferSpec(request: HTTPRequest(method: "GET", url: "http://127.0.0.1:9/"),
                                            control: TransferControl(loop: lane), delivery: .collect(continuation, limit: 1024)))
                    lane.detachFromEventLoop(failingWith: .serverStopped)
                }
            }
            responder.respond(status: 200, headers: [:], body: [])
        }) { _, port in
            _ = try await Self.get(port: port)
        }
        let outcome = try #require(await seen.wait(), "the queued transfer's task never resumed")
        #expect(outcome.error == .serverStopped, "\(outcome)")
    }

    @Test func aReleasedClientFinishesItsLaneStreamsThenClosesItsConnections() async throws {
        let upstream = try LoopbackServer(.chunked(["one ", "two ", "three"], delayMs: 50))
        defer { upstream.stop() }
        let lent = LentOnce(ClientTestEnvironment.makeClient())
        let body = ServerTestFlag<String>()
        try await withTestServer(handler: { _, responder in
            guard let response = try? await lent.take()?.stream(HTTPRequest(method: "GET", url: upstream.url())) else {
                body.set("no stream")
                return responder.respond(status: 502, headers: [:], body: [])
            }
            // The last reference to the client went with `take()`: it is released while its lane still streams.
            var text = ""
            do {
                for try await chunk in response.body { text += String(decoding: chunk, as: UTF8.self) }
            } catch {
                text += " [\(error)]"
            }
            body.set(text)
            responder.respond(status: 200, headers: [:], body: Array(text.utf8))
        }) { _, port in
            let response = try await Self.get(port: port)
            #expect(response?.bodyText == "one two three")
            #expect(await body.wait() == "one two three")
            // The drained lane stops and closes its pooled keep-alive connection (a live lane would keep it open).
            #expect(await upstream.firstPeerClose(within: .seconds(10)) != nil, "the released client's lane kept its connection")
        }
    }

    @Test func shuttingTheClientDownFromAnotherThreadFailsItsLaneTransfers() async throws {
        let upstream = try LoopbackServer(.delayedHead(60_000))
        defer { upstream.stop() }
        let client = ClientTestEnvironment.makeClient()
        let seen = ServerTestFlag<Seen>()
        try await withTestServer(handler: { _, responder in
            await Self.sendRecordingOutcome(client, upstream.url(), into: seen, responder)
        }) { _, port in
            // The caller starts on a thread of its own (see `stoppingTheServerFailsTheLanesTransfersInFlight`).
            try await onOwnThread {
                async let caller = Self.get(port: port)?.status
                #expect(await serverSettles { !upstream.requests.isEmpty }, "the handler's request never reached the upstream")
                client.shutdown()
                let outcome = try #require(await seen.wait(), "the lane's request never ended after the client shut down")
                #expect(outcome.error?.kind == .cancelled)
                #expect(outcome.error?.detail.contains("shut down") == true, "\(String(describing: outcome.error))")
                #expect(try await caller == 502)
                #expect(await upstream.firstPeerClose(within: .seconds(10)) != nil, "the lane left its upstream connection open")
            }
        }
    }

    @Test func droppingALaneStreamFromAnotherThreadClosesItsConnection() async throws {
        let upstream = try LoopbackServer(.drip(intervalMs: 20))
        defer { upstream.stop() }
        let client = ClientTestEnvironment.makeClient()
        let dropped = ServerTestFlag<UInt64>()
        try await withTestServer(handler: { _, responder in
            // Only `lent` holds the response, so dropping what `take()` returned drops the stream.
            guard let lent = (try? await client.stream(HTTPRequest(method: "GET", url: upstream.url()))).map(LentOnce.init) else {
                return responder.respond(status: 502, headers: [:], body: [])
            }
            // The body is read and dropped on the global executor: the cancel reaches the lane from another thread.
            let offLoop = try? await withTaskExecutorPreference(globalConcurrentExecutor) { () async throws -> String in
                var response = lent.take()
                for try await _ in response!.body { break }
                response = nil
                dropped.set(LoopbackSocket.now())
                return Self.threadName()
            }
            responder.respond(status: 200, headers: [:], body: Array((offLoop ?? "failed").utf8))
        }) { _, port in
            let response = try await Self.get(port: port)
            let thread = response?.bodyText ?? ""
            #expect(!thread.hasPrefix("sg-http-"), "the body was read on \(thread), not off the loop")
            #expect(client.transfersOnServerEventLoops == 1)
            let droppedAt = try #require(await dropped.wait())
            let closedAt = try #require(await upstream.firstPeerClose(within: .seconds(10)), "the dropped stream's connection stayed open")
            #expect(millisecondsBetween(droppedAt, closedAt) < 1_000)
        }
    }
}

/// Hands out the one reference to a value once, so whoever lent it keeps none.
private final class LentOnce<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>
    init(_ value: Value) { self.value = Mutex(value) }
    func take() -> Value? { value.locked { held in defer { held = nil }; return held } }
}
