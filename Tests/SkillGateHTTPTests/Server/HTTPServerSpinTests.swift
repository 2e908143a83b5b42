@testable import SkillGateHTTP
import Synchronization
import Testing

/// A server loop spins through a short wait for the answer of a handler's only upstream request instead of sleeping
/// (`EventLoop.spinThroughShortAnswerWait`, decision 0041). Spinning must keep every answer right, happen for a fast
/// upstream, and never happen for an upstream slower than the window.
@Suite struct HTTPServerSpinTests {
    /// A handler that forwards `GET /` to `upstream` with `client` and answers with the upstream's body.
    private static func forwarding(_ client: HTTPClient, to upstream: LoopbackServer) -> @Sendable (HTTPServerRequest, HTTPResponder) async -> Void {
        { _, responder in
            let answer = try? await client.send(HTTPRequest(method: "GET", url: upstream.url()))
            responder.respond(status: answer == nil ? 502 : 200, headers: [:], body: answer?.body ?? [])
        }
    }

    /// `count` requests one after another on one keep-alive connection; the bodies received.
    private static func sequentialBodies(port: Int, count: Int) async throws -> [String] {
        try await RawHTTPClient.blocking {
            let raw = try RawHTTPClient(port: port, receiveTimeout: 30)
            var bodies: [String] = []
            for _ in 0..<count {
                raw.send(rawGET("/"))
                bodies.append(raw.readResponse()?.bodyText ?? "<no answer>")
            }
            return bodies
        }
    }

    /// Also the chore a loop does while it spins (decision 0109: the gateway releases what its writers handed back): it
    /// runs on the loop, at most once per spun wait. (One loop of requests for both: this test is the suite's load.)
    @Test func aFastUpstreamIsSpunForAndEveryAnswerIsRight() async throws {
        let upstream = try LoopbackServer(.fixed(body: "fast"))
        defer { upstream.stop() }
        // The longest window, so that a loaded test machine's answers still come within it most of the time.
        var configuration = HTTPClient.Configuration()
        configuration.spinWindow = .milliseconds(1)
        let client = ClientTestEnvironment.makeClient(configuration)
        let chores = Mutex((count: 0, offTheLoop: 0))
        let chore: @Sendable () -> Void = {
            let onLoop = ServerEventLoops.currentExecutor != nil
            chores.locked { $0.count += 1; if !onLoop { $0.offTheLoop += 1 } }
        }
        var sent = 0
        let server = try await withTestServer({ $0.choreWhileSpinning = chore }, handler: Self.forwarding(client, to: upstream)) { server, port in
            // A spin needs a short wait before it (the rule), and a loaded machine (the whole suite runs in parallel)
            // makes every wait long: send batches until the loop spun, for as long as a parallel run stays loaded.
            let clock = ContinuousClock()
            let start = clock.now
            repeat {
                let bodies = try await Self.sequentialBodies(port: port, count: 40)
                #expect(bodies == Array(repeating: "fast", count: 40))
                sent += 40
            } while (server.statistics.spunAnswerWaits == 0 || chores.locked({ $0.count }) == 0) && clock.now - start < .seconds(40)
            return server
        }
        // Read once the server has stopped: a spin counts its caught answer after the loop turn that handled it, and
        // that turn may already have sent the last reply (read before the stop, one run under a narrow parallel width
        // saw 28 chores against 27 spins).
        let statistics = server.statistics
        #expect(statistics.spunAnswerWaits > 0, "\(statistics)")
        let (count, offTheLoop) = chores.locked { ($0.count, $0.offTheLoop) }
        #expect(count > 0 && offTheLoop == 0, "\(count) chores, \(offTheLoop) off the loop")
        // One chore per wait that spun at all: a spin that caught the answer or timed out.
        #expect(count <= statistics.spunAnswerWaits + statistics.spinTimeouts, "\(count) chores, \(statistics)")
        #expect(client.transfersOnServerEventLoops == sent)
    }

    @Test func anUpstreamSlowerThanTheWindowIsNeverSpunFor() async throws {
        let upstream = try LoopbackServer(.delayedHead(20, then: .fixed(body: "slow")))
        defer { upstream.stop() }
        let client = ClientTestEnvironment.makeClient()  // 50 µs window
        try await withTestServer(handler: Self.forwarding(client, to: upstream)) { server, port in
            let bodies = try await Self.sequentialBodies(port: port, count: 8)
            #expect(bodies == Array(repeating: "slow", count: 8))
            #expect(server.statistics.spunAnswerWaits == 0, "\(server.statistics)")
        }
    }

    @Test func aZeroWindowTurnsSpinningOff() async throws {
        let upstream = try LoopbackServer(.fixed(body: "fast"))
        defer { upstream.stop() }
        var configuration = HTTPClient.Configuration()
        configuration.spinWindow = .zero
        let client = ClientTestEnvironment.makeClient(configuration)
        let chores = Atomic(0)
        try await withTestServer({ $0.choreWhileSpinning = { chores.add(1, ordering: .relaxed) } },
                                 handler: Self.forwarding(client, to: upstream)) { server, port in
            let bodies = try await Self.sequentialBodies(port: port, count: 20)
            #expect(bodies == Array(repeating: "fast", count: 20))
            let statistics = server.statistics
            #expect(statistics.spunAnswerWaits == 0 && statistics.spinTimeouts == 0, "\(statistics)")
        }
        #expect(chores.load(ordering: .relaxed) == 0, "without spinning the chore never runs")
    }
}
