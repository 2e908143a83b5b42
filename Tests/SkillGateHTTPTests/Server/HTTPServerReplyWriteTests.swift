@testable import SkillGateHTTP
import Testing

/// A reply or stream chunk a handler queues is written in the loop iteration that queued it (`writesRepliesAtOnce`,
/// decision 0053), not after the next poll reports the socket writable: each request takes a loop turn fewer, and
/// every answer is the same as before.
@Suite struct HTTPServerReplyWriteTests {
    private static let requests = 60

    private struct Run {
        var turns: Int
        var writtenAtOnce: Int
        var bodies: [String]
    }

    /// `requests` sequential requests on one keep-alive connection to a one-loop server whose handler answers at once,
    /// whole or as a stream of three chunks.
    private static func run(writesAtOnce: Bool, streamed: Bool) async throws -> Run {
        try await withTestServer({ configuration in
            configuration.loops = 1
            configuration.writesRepliesAtOnce = writesAtOnce
        }, handler: { _, responder in
            if streamed {
                try? await responder.startStream(status: 200, headers: ["Content-Type": "text/plain"])
                for part in ["one ", "two ", "three"] { try? await responder.write(Array(part.utf8)) }
                responder.end()
            } else {
                responder.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Array("one two three".utf8))
            }
        }) { server, port in
            let before = server.statistics
            let bodies = try await RawHTTPClient.blocking {
                let raw = try RawHTTPClient(port: port, receiveTimeout: 30)
                return (0..<requests).map { _ in
                    raw.send(rawGET("/"))
                    return raw.readResponse()?.bodyText ?? "<no answer>"
                }
            }
            let after = server.statistics
            return Run(turns: after.loopTurns - before.loopTurns,
                       writtenAtOnce: after.repliesWrittenAtOnce - before.repliesWrittenAtOnce, bodies: bodies)
        }
    }

    @Test(arguments: [false, true])
    func eachRequestTakesALoopTurnFewer(streamed: Bool) async throws {
        let atOnce = try await Self.run(writesAtOnce: true, streamed: streamed)
        let afterPoll = try await Self.run(writesAtOnce: false, streamed: streamed)
        let expected = Array(repeating: "one two three", count: Self.requests)
        #expect(atOnce.bodies == expected)
        #expect(afterPoll.bodies == expected)
        #expect(atOnce.writtenAtOnce >= Self.requests, "written at once: \(atOnce.writtenAtOnce)")
        #expect(afterPoll.writtenAtOnce == 0, "written at once: \(afterPoll.writtenAtOnce)")
        // One turn per request is saved (the write no longer waits for a poll); half of that is required, so that a
        // loaded machine's extra turns (a request read in two parts, a timer) cannot fail the test.
        #expect(afterPoll.turns - atOnce.turns >= Self.requests / 2, "turns: \(atOnce.turns) at once, \(afterPoll.turns) after a poll")
    }
}
