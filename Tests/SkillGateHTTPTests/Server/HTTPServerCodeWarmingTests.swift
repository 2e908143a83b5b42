@testable import SkillGateHTTP
import Glibc
import Testing

/// A loop that slept warms the hot code before handling a request's head (`codeWarmer`, decision 0054), once per
/// turn, and only after a sleep of at least `codeWarmingAfterSleep`.
@Suite struct HTTPServerCodeWarmingTests {
    private static let requests = 20

    /// How many times the loops warmed during `requests` sequential requests, each after a short pause.
    private static func warmings(warmer: CodeWarmer?, afterSleep: Duration) async throws -> (warmings: Int, bodies: [String]) {
        try await withTestServer({ configuration in
            configuration.loops = 1
            configuration.codeWarmer = warmer
            configuration.codeWarmingAfterSleep = afterSleep
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
            return (server.statistics.codeWarmings - before, bodies)
        }
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
}
