@testable import SkillGateHTTP
import Glibc
import Synchronization
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
            // The loop counts a batch's replies once the batch's writes are done, just after the last reply's bytes went
            // out: the client can have it before the count moves. A run writing at once waits for its count (bounded).
            var after = server.statistics
            let deadline = ContinuousClock.now + .seconds(5)
            while writesAtOnce, after.repliesWrittenAtOnce - before.repliesWrittenAtOnce < requests, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
                after = server.statistics
            }
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

    /// Flags shared between a test's handler and its client.
    private final class Flags: Sendable {
        let clientHasAnswer = Atomic<Bool>(false)
        let handlerSawAnswer = Atomic<Bool>(false)
        let handlerDone = Atomic<Bool>(false)
    }

    /// Runs one request whose handler calls `respond`, then `afterRespond`, which is handed a function telling whether
    /// the client has read the answer yet; returns what `afterRespond` saw.
    private static func clientHadAnswer(afterRespond: @escaping @Sendable (HTTPResponder, @escaping @Sendable () -> Bool) async -> Bool)
        async throws -> Bool {
        let flags = Flags()
        try await withTestServer({ $0.loops = 1 }, handler: { _, responder in
            responder.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Array("answered".utf8))
            let saw = await afterRespond(responder) { flags.clientHasAnswer.load(ordering: .acquiring) }
            flags.handlerSawAnswer.store(saw, ordering: .releasing)
            flags.handlerDone.store(true, ordering: .releasing)
        }) { _, port in
            let body = try await RawHTTPClient.blocking {
                let raw = try RawHTTPClient(port: port, receiveTimeout: 30)
                raw.send(rawGET("/"))
                let body = raw.readResponse()?.bodyText
                flags.clientHasAnswer.store(true, ordering: .releasing)
                return body
            }
            #expect(body == "answered")
            let deadline = ContinuousClock.now + .seconds(30)
            while !flags.handlerDone.load(ordering: .acquiring) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        }
        return flags.handlerSawAnswer.load(ordering: .acquiring)
    }

    /// Waits (up to `limit`, holding the loop) until `hasAnswer` holds; returns whether it did.
    private static func waitHoldingTheLoop(_ limit: Duration, _ hasAnswer: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + limit
        while !hasAnswer() && ContinuousClock.now < deadline { usleep(1_000) }
        return hasAnswer()
    }

    /// A whole reply from a handler running on the loop is sent when the handler releases it, before the handler goes
    /// on (what the gateway does after that: metrics, the log line, freeing the request). The handler waits, holding
    /// the loop, for the client to have read the answer: it sees it read. Before decision 0059 the reply went out only
    /// after the handler returned, so the wait always ran its 5 s out.
    @Test func aReleasedReplyIsSentBeforeTheHandlerGoesOn() async throws {
        let saw = try await Self.clientHadAnswer { responder, hasAnswer in
            responder.releaseReply()
            return Self.waitHoldingTheLoop(.seconds(5), hasAnswer)
        }
        #expect(saw, "the released reply waited for the handler to return")
    }

    /// Until the handler releases it (the gateway first frees the request's limit slot and queues its usage), the
    /// reply is held: 300 ms of the handler's own work pass without the client having it.
    @Test func aReplyIsHeldUntilReleased() async throws {
        let saw = try await Self.clientHadAnswer { _, hasAnswer in Self.waitHoldingTheLoop(.milliseconds(300), hasAnswer) }
        #expect(!saw, "the reply went out before the handler released it")
    }

    /// A handler that suspends after `respond` without releasing the reply does not keep the client waiting: the reply
    /// goes out when the handler's job ends.
    @Test func aHeldReplyGoesOutWhenTheHandlerSuspends() async throws {
        let saw = try await Self.clientHadAnswer { _, hasAnswer in
            let deadline = ContinuousClock.now + .seconds(5)
            while !hasAnswer() && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            return hasAnswer()
        }
        #expect(saw, "the held reply waited for the handler to return")
    }

    /// The reply sent from the handler's turn still completes the request at the batch's end: a keep-alive
    /// connection's next requests, and pipelined ones sent in one write, are answered in order.
    @Test func repliesSentFromTheHandlersTurnKeepTheConnectionsOrder() async throws {
        try await withTestServer({ $0.loops = 1 }, handler: { request, responder in
            responder.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Array(request.path.utf8))
        }) { _, port in
            let bodies = try await RawHTTPClient.blocking {
                let raw = try RawHTTPClient(port: port, receiveTimeout: 30)
                raw.send(rawGET("/one"))
                var bodies = [raw.readResponse()?.bodyText ?? "<none>"]
                raw.send(rawGET("/two") + rawGET("/three") + rawGET("/four"))
                for _ in 0..<3 { bodies.append(raw.readResponse()?.bodyText ?? "<none>") }
                return bodies
            }
            #expect(bodies == ["/one", "/two", "/three", "/four"])
        }
    }
}
