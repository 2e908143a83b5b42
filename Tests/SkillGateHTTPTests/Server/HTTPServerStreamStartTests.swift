@testable import SkillGateHTTP
import Glibc
import Synchronization
import Testing

/// A stream's head, chunks and end from a handler running on its connection's loop are put on the connection at once
/// instead of posted as jobs, and what it queued leaves before the handler goes on when it asks (`sendQueuedNow`,
/// decision 0063).
@Suite struct HTTPServerStreamStartTests {
    /// Flags shared between a test's handler and its client.
    private final class Flags: Sendable {
        let clientHasFirstChunk = Atomic<Bool>(false)
        let handlerSawFirstChunk = Atomic<Bool>(false)
        let handlerDone = Atomic<Bool>(false)
    }

    /// GETs `/` on a new connection and reads the whole response, noting in `flags` when its first chunk arrived.
    private static func getNotingTheFirstChunk(port: Int, _ flags: Flags) async throws -> RawHTTPResponse? {
        try await RawHTTPClient.blocking {
            let raw = try RawHTTPClient(port: port, receiveTimeout: 30)
            raw.send(rawGET("/"))
            return raw.readResponse { chunks in
                if chunks == 1 { flags.clientHasFirstChunk.store(true, ordering: .releasing) }
            }
        }
    }

    /// The handler's last chunk and the stream's end; notes that the handler is done.
    private static func finishStream(_ responder: HTTPResponder, _ flags: Flags) async {
        try? await responder.write(Array("second".utf8))
        responder.end()
        flags.handlerDone.store(true, ordering: .releasing)
    }

    /// Waits (up to `limit`, holding the loop) until `condition` holds; returns whether it did.
    private static func waitHoldingTheLoop(_ limit: Duration, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() && ContinuousClock.now < deadline { usleep(1_000) }
        return condition()
    }

    /// The handler writes its first chunk and asks for it to be sent, then holds the loop until the client has read it
    /// (5 s at most): only bytes already sent can reach the client meanwhile. Sent at once, the client has it; with
    /// `writesRepliesAtOnce` off the chunk is posted as a job, which the held loop cannot run, and 300 ms pass without
    /// it.
    @Test(arguments: [true, false])
    func theFirstChunkIsSentBeforeTheHandlerGoesOn(atOnce: Bool) async throws {
        let flags = Flags()
        try await withTestServer({ configuration in
            configuration.loops = 1
            configuration.writesRepliesAtOnce = atOnce
        }, handler: { _, responder in
            try? await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
            try? await responder.write(Array("first ".utf8))
            responder.sendQueuedNow()
            let saw = Self.waitHoldingTheLoop(atOnce ? .seconds(5) : .milliseconds(300)) { flags.clientHasFirstChunk.load(ordering: .acquiring) }
            flags.handlerSawFirstChunk.store(saw, ordering: .releasing)
            await Self.finishStream(responder, flags)
        }) { server, port in
            let before = server.statistics.streamWritesSentAtOnce
            let response = try await Self.getNotingTheFirstChunk(port: port, flags)
            #expect(response?.status == 200 && response?.bodyText == "first second" && response?.chunkCount == 2)
            let deadline = ContinuousClock.now + .seconds(30)
            while !flags.handlerDone.load(ordering: .acquiring) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(flags.handlerSawFirstChunk.load(ordering: .acquiring) == atOnce,
                    atOnce ? "the first chunk waited for the handler to suspend" : "the chunk went out without the loop running its job")
            #expect(server.statistics.streamWritesSentAtOnce - before == (atOnce ? 1 : 0))
        }
    }

    /// Without `sendQueuedNow`, a chunk queued from the handler's task leaves at the end of the loop's batch of jobs:
    /// while the handler holds the loop, the client does not have it; once the handler suspends, it does.
    @Test func aQueuedChunkWaitsForTheBatchsEndUnlessSentAtOnce() async throws {
        let flags = Flags()
        try await withTestServer({ $0.loops = 1 }, handler: { _, responder in
            try? await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
            try? await responder.write(Array("first ".utf8))
            flags.handlerSawFirstChunk.store(Self.waitHoldingTheLoop(.milliseconds(300)) { flags.clientHasFirstChunk.load(ordering: .acquiring) },
                                             ordering: .releasing)
            try? await Task.sleep(for: .milliseconds(1))   // suspends: the batch ends, and the chunk goes out
            let deadline = ContinuousClock.now + .seconds(5)
            while !flags.clientHasFirstChunk.load(ordering: .acquiring) && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            await Self.finishStream(responder, flags)
        }) { server, port in
            let before = server.statistics.streamWritesSentAtOnce
            let response = try await Self.getNotingTheFirstChunk(port: port, flags)
            #expect(response?.bodyText == "first second")
            let sawBeforeTheBatchsEnd = flags.handlerSawFirstChunk.load(ordering: .acquiring)
            #expect(!sawBeforeTheBatchsEnd, "the chunk went out before the batch's end")
            #expect(server.statistics.streamWritesSentAtOnce == before)
        }
    }

    /// A stream whose calls come partly from the loop's own task and partly from tasks on other executors (posted as
    /// jobs) reaches the client in the order the calls were made, started on the loop or elsewhere, on a keep-alive
    /// connection that then serves the next request.
    @Test(arguments: [false, true])
    func aStreamKeepsItsOrderWhenSomeCallsComeFromOtherExecutors(startElsewhere: Bool) async throws {
        try await withTestServer({ $0.loops = 1 }, handler: { request, responder in
            guard request.path == "/stream" else {
                return responder.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Array("next".utf8))
            }
            let head: HTTPHeaders = ["Content-Type": "text/plain"]
            if startElsewhere {
                await Task.detached { try? await responder.startStream(status: 200, headers: head) }.value
            } else {
                try? await responder.startStream(status: 200, headers: head)
            }
            try? await responder.write(Array("a".utf8))
            await Task.detached { try? await responder.write(Array("b".utf8)) }.value
            try? await responder.write(Array("c".utf8))
            await Task.detached {
                try? await responder.write(Array("d".utf8))
                try? await responder.write(Array("e".utf8))
            }.value
            try? await responder.write(Array("f".utf8))
            responder.end()
        }) { _, port in
            let bodies = try await RawHTTPClient.blocking {
                let raw = try RawHTTPClient(port: port, receiveTimeout: 30)
                raw.send(rawGET("/stream"))
                let streamed = raw.readResponse()
                raw.send(rawGET("/next"))
                return [streamed?.bodyText ?? "<none>", raw.readResponse()?.bodyText ?? "<none>"]
            }
            #expect(bodies == ["abcdef", "next"])
        }
    }
}
