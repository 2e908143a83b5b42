import Foundation
import Synchronization
import SkillGateHTTP
import Testing
import SkillGateTestSupport

@Suite("HTTPServer shutdown")
struct HTTPServerShutdownTests {
    static func makeServer(_ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
                           _ handler: @escaping @Sendable (HTTPServerRequest, HTTPResponder) async -> Void) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, loops: 2)
        configure(&configuration)
        let server = try HTTPServer(configuration: configuration, handler: ServerTestHandler(handler))
        try server.start()
        return server
    }

    @Test func inFlightRequestFinishesAndNewConnectionsAreRefused() async throws {
        let started = ServerTestFlag<Bool>()
        let gate = HandlerGate()
        let server = try Self.makeServer { _, responder in
            started.set(true)
            await gate.wait()
            responder.respond(status: 200, headers: [:], body: Array("done".utf8))
        }
        let port = server.boundPort
        let listener = try #require(SocketDiagnostics.listenerInode(port: port))
        async let response = RawHTTPClient.blocking {
            let client = try RawHTTPClient(port: port, receiveTimeout: 30)
            client.send(rawGET("/work"))
            return client.readResponse()
        }
        _ = await started.wait()
        let clock = ContinuousClock()
        let begin = clock.now
        // The handler answers 300 ms after shutdown began, so its reply is written while draining.
        gate.open(afterMilliseconds: 300)
        // A long deadline, and a bound far below it: the drain polls on the cooperative pool, which a parallel run's
        // first seconds keep busy with other tests' synchronous work (4.4 s were measured once against a 3 s bound).
        let clean = await server.shutdown(deadline: .seconds(30))
        let took = clock.now - begin
        let finished = try await response
        #expect(finished?.bodyText == "done")
        #expect(finished?.header("Connection")?.lowercased() == "close")
        #expect(clean, "the drain ran into its deadline although the only request finished after 300 ms")
        #expect(took < .seconds(15), "shutdown waited \(took) although the only request finished after 300 ms")
        // The listener is closed. (A connection attempt proves nothing: a server of a test running in parallel may
        // have been given the freed port already.)
        let after = SocketDiagnostics.listenerInode(port: port)
        #expect(after != listener, "the stopped server's listening socket (inode \(listener)) is still open")
    }

    /// A reply whose handler has returned but whose bytes still wait in the server's output buffer (the client had
    /// not read them when shutdown began) reaches the client whole: the drain waits for the write, not only for the
    /// handler. Before, the loops stopped as soon as the handler returned and the end of the answer was cut off.
    @Test func aReplyStillBeingWrittenIsSentWholeBeforeTheLoopsStop() async throws {
        let size = 32 * 1024 * 1024
        let replied = ServerTestFlag<Bool>()
        // The client reads nothing for a while: a loaded parallel run once delayed its first read past the 10 s
        // write-stall timeout, which (rightly) cut the unread answer off. That timeout is not what this test is about.
        let server = try Self.makeServer(keepIdleConnectionsOpen) { _, responder in
            responder.respond(status: 200, headers: [:], body: [UInt8](repeating: 0x61, count: size))
            replied.set(true)
        }
        let port = server.boundPort
        let client = try RawHTTPClient(port: port, receiveTimeout: 30)
        client.send(rawGET("/big"))
        #expect(await replied.wait() == true)
        // The client has read nothing yet: most of the 32 MiB sit in the server's buffers when shutdown begins.
        let shutdown = Task { await server.shutdown(deadline: .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(200))
        let response = try await RawHTTPClient.blocking { client.readResponse() }
        #expect(response?.body.count == size, "the client got \(response?.body.count ?? 0) of \(size) bytes")
        #expect(await shutdown.value, "the drain was clean")
    }

    /// Work a handler does after replying (its log line, usage) still finishes before shutdown
    /// returns, so a process that exits right after shutdown loses none of it.
    @Test func handlerWorkAfterTheReplyFinishesBeforeShutdownReturns() async throws {
        let wrapUpDone = ServerTestFlag<Bool>()
        let server = try Self.makeServer { _, responder in
            responder.respond(status: 200, headers: [:], body: Array("done".utf8))
            try? await Task.sleep(for: .milliseconds(200))
            wrapUpDone.set(true)
        }
        let port = server.boundPort
        let response = try await RawHTTPClient.blocking {
            let client = try RawHTTPClient(port: port)
            client.send(rawGET("/work"))
            return client.readResponse()
        }
        #expect(response?.bodyText == "done")
        await server.shutdown(deadline: .seconds(5))
        #expect(wrapUpDone.value == true, "shutdown returned while a handler was still finishing after its reply")
    }

    @Test func deadlineCancelsHandlersThatRunTooLong() async throws {
        let cancelled = ServerTestFlag<Bool>()
        let started = ServerTestFlag<Bool>()
        let server = try Self.makeServer { _, responder in
            started.set(true)
            do { try await Task.sleep(for: .seconds(30)) } catch { cancelled.set(true) }
            responder.respond(status: 200, headers: [:], body: [])
        }
        let port = server.boundPort
        async let outcome = RawHTTPClient.blocking {
            // Waits up to 20 s for the close (the default 5 s was once too short in a loaded stress iteration; the
            // shutdown itself is bounded below).
            let client = try RawHTTPClient(port: port, receiveTimeout: 20)
            client.send(rawGET("/forever"))
            return client.readUntilClosed().closed
        }
        _ = await started.wait()
        let clock = ContinuousClock()
        let begin = clock.now
        await server.shutdown(deadline: .milliseconds(200))
        // Far below the handler's 30 s, which a shutdown that waited for it would take; not 2 s, because this task's
        // resumption can wait seconds for the cooperative pool in a parallel run's first seconds (decision 0034:
        // 2.17 s was seen once in 12 stress iterations).
        #expect(clock.now - begin < .seconds(15))
        #expect(await cancelled.wait() == true)
        #expect(try await outcome)
    }

    /// A stream still running when the grace period ends is cut off by the server, not by its client: its handler is
    /// told so (`wasCutOffByServer`) and cancelled, and may still write a last event and end the stream before the
    /// connection closes (decision 0137). Before, the connection was closed under it: the handler saw what looks like a
    /// client that left (the gateway logged 499, `client_gone`), and the client a stream cut mid-answer.
    @Test func aStreamCutOffAtTheDeadlineMayEndWithALastWord() async throws {
        let started = ServerTestFlag<Bool>()
        let told = ServerTestFlag<Bool>()
        let server = try Self.makeServer { _, responder in
            do {
                try await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
                try await responder.write(Array("data: 1\n\n".utf8))
                started.set(true)
                try await Task.sleep(for: .seconds(30))
            } catch {
                told.set(responder.wasCutOffByServer)
                if responder.wasCutOffByServer { try? await responder.write(Array("data: cut off\n\n".utf8)) }
            }
            responder.end()
        }
        let port = server.boundPort
        async let response = RawHTTPClient.blocking {
            let client = try RawHTTPClient(port: port, receiveTimeout: 20)
            client.send(rawGET("/stream"))
            return client.readResponse()
        }
        _ = await started.wait()
        let clean = await server.shutdown(deadline: .milliseconds(200))
        let stream = try await response
        #expect(!clean, "a handler was cut off")
        #expect(await told.wait() == true, "the handler was not told the server cut it off")
        #expect(stream?.bodyText == "data: 1\n\ndata: cut off\n\n", "the stream did not end with its last word: \(stream?.bodyText ?? "cut")")
    }

    /// A handler cut off at the deadline that just returns, its stream unended or its reply unsent, leaves its client a
    /// cut connection, as before the moment for last words: not a stream ended as if whole, nor a 500 saying the handler
    /// sent nothing (decision 0137).
    @Test(arguments: [true, false])
    func aHandlerCutOffThatReturnsWithoutFinishingLeavesItsConnectionCut(streams: Bool) async throws {
        let started = ServerTestFlag<Bool>()
        let server = try Self.makeServer { _, responder in
            if streams {
                try? await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
                try? await responder.write(Array("data: 1\n\n".utf8))
            }
            started.set(true)
            try? await Task.sleep(for: .seconds(30))
        }
        let port = server.boundPort
        async let outcome = RawHTTPClient.blocking {
            let client = try RawHTTPClient(port: port, receiveTimeout: 20)
            client.send(rawGET("/stream"))
            return client.readUntilClosed()
        }
        _ = await started.wait()
        await server.shutdown(deadline: .milliseconds(200))
        let (bytes, closed) = try await outcome
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(closed)
        if streams {
            #expect(text.hasPrefix("HTTP/1.1 200") && !text.hasSuffix("0\r\n\r\n"), "a cut stream was ended as if whole: \(text)")
        } else {
            #expect(text.isEmpty, "a handler that was stopped was answered for: \(text)")
        }
    }

    /// A request on a keep-alive connection opened before the drain is served, and its reply closes the connection
    /// (decision 0145): its client's next request goes to a new connection, which another process sharing the port
    /// takes in a rolling restart. Before, it was answered 503 and had to be sent again.
    @Test func aRequestOnAKeptAliveConnectionDuringTheDrainIsServedAndItsConnectionClosed() async throws {
        try await onOwnThread {
            let started = ServerTestFlag<Bool>()
            // /hold stays in flight until the late request was answered, however the pool delays this test.
            let gate = HandlerGate()
            let server = try Self.makeServer { request, responder in
                if request.path == "/hold" {
                    started.set(true)
                    await gate.wait()
                }
                responder.respond(status: 200, headers: [:], body: Array(request.path.utf8))
            }
            let port = server.boundPort
            // An idle keep-alive connection opened before the shutdown.
            let idle = try await RawHTTPClient.blocking { () -> RawHTTPClient in
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/warmup"))
                _ = client.readResponse()
                return client
            }
            async let held = RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/hold"))
                return client.readResponse()
            }
            _ = await started.wait()
            async let stopping: Bool = server.shutdown(deadline: .seconds(30))
            #expect(await serverSettles { server.isShuttingDown })
            let late = try await RawHTTPClient.blocking { () -> (RawHTTPResponse?, Bool) in
                idle.send(rawGET("/late"))
                return (idle.readResponse(), idle.readUntilClosed().closed)
            }
            gate.open(afterMilliseconds: 0)
            #expect(late.0?.status == 200)
            #expect(late.0?.bodyText == "/late")
            #expect(late.0?.header("Connection")?.lowercased() == "close")
            #expect(late.1, "the connection stayed open after its drain-time reply")
            #expect(try await held?.status == 200)
            #expect(await stopping, "the drain was not clean")
        }
    }

    /// A request whose head has come but whose body has not when the drain begins is waited for (within the grace
    /// period) and served: the drain counts it as it counts requests with their handlers (decision 0145). Before, a
    /// drain with nothing else in flight ended at once and closed the connection under the arriving request.
    @Test func aRequestPartlyReadWhenTheDrainBeginsIsAwaitedAndServed() async throws {
        try await onOwnThread {
            let server = try Self.makeServer({ keepIdleConnectionsOpen(&$0) }) { request, responder in
                responder.respond(status: 200, headers: [:], body: Array("\(request.path) \(request.body.count)".utf8))
            }
            let port = server.boundPort
            let client = try await RawHTTPClient.blocking { () -> RawHTTPClient in
                let client = try RawHTTPClient(port: port, receiveTimeout: 30)
                client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab")  // 3 bytes to come
                return client
            }
            #expect(await serverSettles { server.statistics.openConnections == 1 })
            try await Task.sleep(for: .milliseconds(100))  // the head read
            let clock = ContinuousClock()
            let began = clock.now
            async let stopping: Bool = server.shutdown(deadline: .seconds(30))
            #expect(await serverSettles { server.isShuttingDown })
            try await Task.sleep(for: .milliseconds(300))
            let reply = try await RawHTTPClient.blocking { () -> RawHTTPResponse? in
                client.send("cde")
                return client.readResponse()
            }
            #expect(reply?.status == 200)
            #expect(reply?.bodyText == "/upload 5")
            #expect(reply?.header("Connection")?.lowercased() == "close")
            #expect(await stopping, "the drain was not clean")
            #expect(clock.now - began >= .milliseconds(300), "the drain did not wait for the request being read")
        }
    }

    /// With `linger`, an idle keep-alive connection is kept a moment for its client's next request (decision 0145): a
    /// client pausing between requests when a restart's drain begins is answered (and its connection closed after), where
    /// the drain, with nothing in flight, closed the connection under it. The linger ends as soon as no connection is
    /// left, and never makes the drain unclean.
    @Test func anIdleConnectionIsKeptForALastRequestWhileTheDrainLingers() async throws {
        try await onOwnThread {
            let server = try Self.makeServer({ keepIdleConnectionsOpen(&$0) }) { request, responder in
                responder.respond(status: 200, headers: [:], body: Array(request.path.utf8))
            }
            let port = server.boundPort
            let idle = try await RawHTTPClient.blocking { () -> RawHTTPClient in
                let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                client.send(rawGET("/first"))
                _ = client.readResponse()
                return client
            }
            let clock = ContinuousClock()
            let began = clock.now
            async let stopping: Bool = server.shutdown(deadline: .seconds(30), linger: .seconds(25))
            #expect(await serverSettles { server.isShuttingDown })
            try await Task.sleep(for: .milliseconds(300))  // the client pauses, then sends its next request
            let late = try await RawHTTPClient.blocking { () -> RawHTTPResponse? in
                idle.send(rawGET("/next"))
                return idle.readResponse()
            }
            let clean = await stopping
            #expect(late?.status == 200 && late?.bodyText == "/next", "the idle connection was closed under its next request")
            #expect(late?.header("Connection")?.lowercased() == "close")
            #expect(clean)
            #expect(clock.now - began < .seconds(20), "the linger went on after the last connection closed")
        }
    }

    /// A head still arriving does not hold the drain: any client can start one with a byte and no token. An attack
    /// round held every stop for the whole grace period, and made it report a request cut off, with one byte (decision
    /// 0145); the drain waits only for requests whose head has come.
    @Test func aHeadStillArrivingDoesNotHoldTheDrain() async throws {
        try await onOwnThread {
            let server = try Self.makeServer({ keepIdleConnectionsOpen(&$0) }) { request, responder in
                responder.respond(status: 200, headers: [:], body: [])
            }
            let port = server.boundPort
            let client = try await RawHTTPClient.blocking { () -> RawHTTPClient in
                let client = try RawHTTPClient(port: port, receiveTimeout: 10)
                client.send("P")
                return client
            }
            #expect(await serverSettles { server.statistics.openConnections == 1 })
            try await Task.sleep(for: .milliseconds(100))  // the byte read
            let clock = ContinuousClock()
            let began = clock.now
            let clean = await server.shutdown(deadline: .seconds(20))
            let took = clock.now - began
            _ = client
            #expect(clean, "a byte of a head made the drain report a request cut off")
            #expect(took < .seconds(10), "a byte of a head held the drain for \(took)")
        }
    }

    /// Connections the kernel completed before the drain began, waiting in the listening socket's backlog because the
    /// loop was busy, are taken and served before the socket closes (decision 0145). Before, closing the socket reset
    /// them, and their requests, already sent, were lost: in a rolling restart over `reusePort`, the few connections
    /// the old process's backlog held at its SIGTERM failed.
    @Test func connectionsWaitingInTheBacklogWhenTheDrainBeginsAreServed() async throws {
        try await onOwnThread {
            let busy = ServerTestFlag<Bool>()
            let release = Atomic<Bool>(false)
            let server = try Self.makeServer({ $0.loops = 1 }) { request, responder in
                if request.path == "/busy" {
                    busy.set(true)
                    // Holds the only loop's thread: nothing is accepted until it returns.
                    while !release.load(ordering: .acquiring) { usleep(1_000) }
                }
                responder.respond(status: 200, headers: [:], body: Array(request.path.utf8))
            }
            let port = server.boundPort
            async let first = RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 30)
                client.send(rawGET("/busy"))
                return client.readResponse()
            }
            _ = await busy.wait()
            let waiting = try await RawHTTPClient.blocking {
                try (0..<5).map { index -> RawHTTPClient in
                    let client = try RawHTTPClient(port: port, receiveTimeout: 30)  // completed by the kernel, not accepted
                    client.send(rawGET("/queued-\(index)"))
                    return client
                }
            }
            async let stopping: Bool = server.shutdown(deadline: .seconds(30))
            #expect(await serverSettles { server.isShuttingDown })  // every loop was told before the loop is freed
            release.store(true, ordering: .releasing)
            let replies = try await RawHTTPClient.blocking { waiting.map { $0.readResponse() } }
            #expect(try await first?.status == 200)
            #expect(replies.map { $0?.status } == Array(repeating: 200, count: 5), "a connection waiting in the backlog was reset")
            #expect(replies.map { $0?.bodyText } == (0..<5).map { "/queued-\($0)" })
            #expect(replies.allSatisfy { $0?.header("Connection")?.lowercased() == "close" })
            #expect(await stopping, "the drain was not clean")
        }
    }

    @Test func shutdownBeforeStartAndTwiceIsHarmless() async throws {
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loops: 1),
                                    handler: ServerTestHandler { _, _ in })
        await server.shutdown(deadline: .milliseconds(10))
        let started = try Self.makeServer { _, _ in }
        await started.shutdown(deadline: .milliseconds(10))
        await started.shutdown(deadline: .milliseconds(10))
        #expect(throws: HTTPServerError.self) { try started.start() }
    }

    @Test func runUntilSignalShutsDownOnTheSignal() async throws {
        // Ignore first so an early signal can never take the test process down.
        signal(SIGUSR2, SIG_IGN)
        let server = try Self.makeServer { _, responder in responder.respond(status: 204, headers: [:], body: []) }
        let port = server.boundPort
        let listener = try #require(SocketDiagnostics.listenerInode(port: port))
        // Armed before the signal is sent, as `skillgate serve` arms before it listens: one signal is enough.
        let watch = await SignalWatch.arm([SIGUSR2])
        let received = Task { await server.runUntil(watch, grace: .milliseconds(200)) }
        kill(getpid(), SIGUSR2)
        let stop = await received.value
        #expect(stop.signal == SIGUSR2)
        // The listener is closed. (A connection attempt proves nothing: a server of a test running in parallel may
        // have been given the freed port already.)
        let after = SocketDiagnostics.listenerInode(port: port)
        #expect(after != listener, "the stopped server's listening socket (inode \(listener)) is still open")
    }
}

/// Holds a handler until `open(afterMilliseconds:)` lets it go, from a thread of its own: the handler's
/// wait ends at a set time after the test's step, however long the cooperative pool delays the test
/// (a `Task.sleep` in the handler would race the test's next step instead).
final class HandlerGate: Sendable {
    private let state = Mutex<(opened: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let opened = state.locked { s -> Bool in
                if s.opened { return true }
                s.waiter = continuation
                return false
            }
            if opened { continuation.resume() }
        }
    }

    func open(afterMilliseconds milliseconds: UInt32) {
        Thread {
            usleep(milliseconds * 1000)
            let waiter = self.state.locked { s -> CheckedContinuation<Void, Never>? in
                s.opened = true
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }.start()
    }
}
