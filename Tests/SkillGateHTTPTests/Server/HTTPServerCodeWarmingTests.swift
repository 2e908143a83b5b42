@testable import SkillGateHTTP
import Glibc
import Testing

/// A loop that slept warms the request's hot code before handling a request's head (`codeWarmer`, decisions 0054 and
/// 0055), once per turn, and only after a sleep of at least `codeWarmingAfterSleep`; such a request's answer code is
/// warmed while the loop waits for the upstream, and again when the upstream's first bytes come after a sleep.
@Suite struct HTTPServerCodeWarmingTests {
    private static let requests = 20

    /// How many times the loops warmed during `requests` sequential requests, each after a short pause.
    private static func warmings(warmer: CodeWarmer?, afterSleep: Duration, rewarmAfter: Duration = .milliseconds(1)) async throws -> (warmings: Int, ahead: Int, bodies: [String]) {
        try await withTestServer({ configuration in
            configuration.loops = 1
            configuration.codeWarmer = warmer
            configuration.codeWarmingAfterSleep = afterSleep
            configuration.codeRewarmAfter = rewarmAfter
        }, handler: { _, responder in
            responder.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Array("warm".utf8))
        }) { server, port in
            let before = server.statistics.codeWarmings
            let bodies = try await RawHTTPClient.blocking {
                let raw = try RawHTTPClient(port: port, receiveTimeout: 30)
                return (0..<requests).map { _ in
                    usleep(2_000)   // the loop blocks in its poll meanwhile
                    raw.send(rawGET("/"))
                    return raw.readResponse()?.bodyText ?? "<no answer>"
                }
            }
            return (server.statistics.codeWarmings - before, server.statistics.codeWarmingsAhead, bodies)
        }
    }

    /// `requests` sequential requests through a handler that forwards to an upstream answering after 5 ms, over
    /// `engine`; returns the server's statistics after them and the bodies.
    private static func forwardedWarmings(_ engine: ClientEngine) async throws -> (statistics: HTTPServer.Statistics, bodies: [String]) {
        let upstream = try LoopbackServer(.delayedHead(5, then: .fixed(body: "forwarded")))
        defer { upstream.stop() }
        let client = ClientTestEnvironment.makeClient(engine)
        let warmer = try Self.warmer
        return try await withTestServer({ configuration in
            configuration.loops = 1
            configuration.codeWarmer = warmer
        }, handler: { _, responder in
            let answer = try? await client.send(HTTPRequest(method: "GET", url: upstream.url()))
            responder.respond(status: answer == nil ? 502 : 200, headers: [:], body: answer?.body ?? [])
        }) { server, port in
            let bodies = try await RawHTTPClient.blocking {
                let raw = try RawHTTPClient(port: port, receiveTimeout: 30)
                return (0..<requests).map { _ in
                    usleep(2_000)
                    raw.send(rawGET("/"))
                    return raw.readResponse()?.bodyText ?? "<no answer>"
                }
            }
            return (server.statistics, bodies)
        }
    }

    @Test(arguments: ClientEngine.allCases)
    func theAnswersCodeIsWarmedWhileTheUpstreamIsAwaited(engine: ClientEngine) async throws {
        let run = try await Self.forwardedWarmings(engine)
        #expect(run.bodies == Array(repeating: "forwarded", count: Self.requests))
        let statistics = run.statistics
        // Each request came 2 ms after the last answer, into a sleeping loop (half is enough, as above); each warmed
        // request's answer is warmed ahead once its transfer is in flight, at most once per warmed request.
        #expect(statistics.codeWarmingsAhead >= Self.requests / 2, "\(statistics)")
        #expect(statistics.codeWarmingsAhead <= Self.requests, "\(statistics)")
        if engine == .ownHTTP1 {
            // The own client also warms at the answer's first bytes: they come after the loop slept 5 ms.
            #expect(statistics.codeWarmings >= statistics.codeWarmingsAhead + Self.requests / 2, "\(statistics)")
        }
    }

    @Test func aRequestThatNeverGoesUpstreamIsNotWarmedAhead() async throws {
        let run = try await Self.warmings(warmer: try Self.warmer, afterSleep: .microseconds(50))
        #expect(run.warmings >= Self.requests / 2)
        #expect(run.ahead == 0)
    }

    private static var warmer: CodeWarmer {
        get throws { try CodeWarmer.placing("F \(String(HotCodeTable.symbolHash("sg_code_warming_probe".utf8), radix: 16)) 0") }
    }

    @Test func warmsBeforeRequestsThatFollowASleep() async throws {
        let run = try await Self.warmings(warmer: try Self.warmer, afterSleep: .microseconds(50))
        #expect(run.bodies == Array(repeating: "warm", count: Self.requests))
        // Each request came 2 ms after the last answer, into a sleeping loop; a request whose head the loop reads in
        // the turn of the previous answer's end is not a miss, so half is enough.
        #expect(run.warmings >= Self.requests / 2, "warmings: \(run.warmings)")
        #expect(run.warmings <= Self.requests * 2, "at most once a turn: \(run.warmings)")
    }

    @Test func shortSleepsAndNoWarmerDoNotWarm() async throws {
        let tooShort = try await Self.warmings(warmer: try Self.warmer, afterSleep: .seconds(60))
        let none = try await Self.warmings(warmer: nil, afterSleep: .zero)
        #expect(tooShort.warmings == 0)
        #expect(none.warmings == 0)
        #expect(tooShort.bodies == none.bodies)
    }

    /// A loop that ran the request's code a moment ago still has it: only the first request (the code never ran on
    /// this loop before) is warmed for when the phase was seen within `codeRewarmAfter`.
    @Test func codeTheLoopRanRecentlyIsNotWarmedAgain() async throws {
        let run = try await Self.warmings(warmer: try Self.warmer, afterSleep: .zero, rewarmAfter: .seconds(60))
        #expect(run.bodies == Array(repeating: "warm", count: Self.requests))
        #expect(run.warmings == 1, "warmings: \(run.warmings)")
    }
}
