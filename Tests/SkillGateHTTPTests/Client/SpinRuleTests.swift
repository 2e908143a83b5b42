import Testing
@testable import SkillGateHTTP
import SkillGateTestSupport

/// The rule for when the libcurl loop spins through a wait instead of sleeping.
@Suite struct SpinRuleTests {
    private let window = Duration.microseconds(50)

    @Test func doesNotSpinBeforeAWaitWasShort() {
        var spin = SpinRule()
        let spins = spin.waitStarted(at: 1_000, window: window)
        #expect(!spins)
    }

    @Test func spinsAfterAWaitShorterThanTheWindow() {
        var spin = SpinRule()
        _ = spin.waitStarted(at: 1_000, window: window)
        spin.waitEnded(at: 1_000 + 10_000)          // 10 µs later
        let spins = spin.waitStarted(at: 100_000, window: window)
        #expect(spins)
        #expect(spin.window == 50_000)
    }

    @Test func aLongWaitOrATimedOutSpinTurnsSpinningOff() {
        var spin = SpinRule()
        _ = spin.waitStarted(at: 0, window: window)
        spin.waitEnded(at: 10_000)
        let spinsAfterShortGap = spin.waitStarted(at: 20_000, window: window)
        #expect(spinsAfterShortGap)
        spin.timedOut()
        let spinsAgainAfterTimeout = spin.waitStarted(at: 20_000 + 1_000_000, window: window)
        #expect(!spinsAgainAfterTimeout, "a spin that found nothing must not repeat")
        spin.waitEnded(at: 20_000 + 2_000_000)      // 2 ms gap
        let spinsAfterLongGap = spin.waitStarted(at: 30_000_000, window: window)
        #expect(!spinsAfterLongGap)
    }

    @Test func aZeroWindowNeverSpins() {
        var spin = SpinRule()
        _ = spin.waitStarted(at: 0, window: .zero)
        spin.waitEnded(at: 1)
        let decision1380 = spin.waitStarted(at: 2, window: .zero)
        #expect(!decision1380)
    }
}

/// End to end: requests submitted around the end of a spin window are never stalled. A lost
/// wake-up leaves a submitted request in the loop's queue until something unrelated wakes the loop:
/// with the libevent loop nothing does (the test's time limit catches it); the earlier poll loop
/// woke after its 1 s poll timeout. The requests run on a thread of their own, so a cooperative pool
/// kept busy by other tests does not delay the measurement.
@Suite struct HTTPClientSpinTests {
    @Test(.timeLimit(.minutes(1)), arguments: [Duration.microseconds(50), .zero])
    func requestsSubmittedAroundTheSpinWindowAreNeverStalled(_ spin: Duration) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.fixed(body: "ok"))
            defer { server.stop() }
            let client = ClientTestEnvironment.makeClient(.init(maxConnections: 1, spinWindow: spin))
            let request = HTTPRequest(method: "GET", url: server.url("/spin"))
            var slow: [Duration] = []
            let clock = ContinuousClock()
            for i in 0..<600 {
                // Gaps from none to well past the window, so submissions land before, during and
                // right after the spin ends.
                let gapMicros = (i * 37) % 160
                if gapMicros > 0 { try await Task.sleep(for: .microseconds(gapMicros)) }
                let started = clock.now
                let response = try await client.send(request)
                let took = clock.now - started
                if took >= .milliseconds(300) { slow.append(took) }
                #expect(response.status == 200)
            }
            // A loaded machine delays a request now and then by scheduling alone; a lost wake-up
            // costs a second or more, every time it happens.
            #expect(slow.allSatisfy { $0 < .seconds(1) }, "requests waited \(slow): a wake-up was lost")
            #expect(slow.count <= 6, "\(slow.count) of 600 requests took 300 ms or more: \(slow)")
            #expect(server.acceptedConnections == 1)
        }
    }

    /// With spinning on, an answer that takes longer than the window (the spin times out and the
    /// loop sleeps) or arrives in pieces still completes, and quickly.
    @Test func slowAndPiecewiseAnswersStillComplete() async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.chunked(["a", "b", "c"], delayMs: 3))
            defer { server.stop() }
            let client = ClientTestEnvironment.makeClient(.init(maxConnections: 1, spinWindow: .microseconds(50)))
            let clock = ContinuousClock()
            for _ in 0..<20 {
                let started = clock.now
                let response = try await client.send(HTTPRequest(method: "GET", url: server.url("/slow")))
                #expect(String(decoding: response.body, as: UTF8.self) == "abc")
                #expect(clock.now - started < .milliseconds(400))
            }
        }
    }
}
