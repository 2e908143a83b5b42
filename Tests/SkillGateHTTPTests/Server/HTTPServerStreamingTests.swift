import Foundation
import SkillGateHTTP
import Testing

@Suite("HTTPServer streaming and disconnects")
struct HTTPServerStreamingTests {
    /// Where a request that never reached its handler stopped (decision 0034's rare stall): the server's own counts and
    /// the server side of the client's connection as the kernel sees it.
    static func stage(_ server: HTTPServer, _ port: Int, _ client: RawHTTPClient, _ handlerRan: Bool) -> String {
        let s = server.statistics
        return "handler ran: \(handlerRan); connections accepted \(s.acceptedConnections), open \(s.openConnections), refused "
            + "\(s.refusedOverTotal + s.refusedAtHead + s.refusedOverPerIP), timed out \(s.headerTimeouts + s.bodyTimeouts), "
            + "closed during a request \(s.closedDuringRequest) (by a peer check \(s.closedOnPeerCheck), errno \(s.lastPeerCheckErrno)), "
            + "closed before the handler \(s.closedBeforeHandler) (last socket state \(s.lastClosedBeforeHandlerState)); "
            + "in flight \(server.inFlightRequestCount); "
            + SocketDiagnostics.serverSide(serverPort: port, clientPort: client.localPort)
            + "; the client's descriptor: " + SocketDiagnostics.describe(descriptor: client.descriptor)
    }

    @Test func streamedChunksArriveInOrderAndConnectionStaysUsable() async throws {
        try await withTestServer(handler: { request, responder in
            do {
                try await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
                for i in 0..<5 {
                    try await responder.write(Array("data: \(i)\n\n".utf8))
                    try await Task.sleep(for: .milliseconds(5))
                }
                responder.end()
            } catch {}
        }) { _, port in
            let responses = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/stream"))
                let first = client.readResponse()
                client.send(rawGET("/stream"))
                return [first, client.readResponse()]
            }
            for response in responses {
                #expect(response?.status == 200)
                #expect(response?.header("Transfer-Encoding") == "chunked")
                #expect(response?.header("Content-Type") == "text/event-stream")
                #expect(response?.bodyText == (0..<5).map { "data: \($0)\n\n" }.joined())
                #expect((response?.chunkCount ?? 0) >= 2)
            }
        }
    }

    @Test func handlerReturningMidStreamEndsTheStream() async throws {
        try await withTestServer(handler: { _, responder in
            try? await responder.startStream(status: 200, headers: [:])
            try? await responder.write(Array("partial".utf8))
        }) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/"))
                return client.readResponse()
            }
            #expect(response?.bodyText == "partial")
        }
    }

    @Test func clientDisconnectCancelsHandlerWaitingForNonStreamingAnswer() async throws {
        // When the handler saw its cancellation, taken on its loop thread: the latency does not
        // include this test's own wait for a cooperative-pool thread in a parallel run.
        let cancelledAt = ServerTestFlag<ContinuousClock.Instant>()
        let started = ServerTestFlag<ContinuousClock.Instant>()
        try await withTestServer(handler: { _, responder in
            started.set(.now)
            do {
                try await Task.sleep(for: .seconds(30))
                responder.respond(status: 200, headers: [:], body: [])
            } catch {
                cancelledAt.set(.now)
            }
        }) { server, port in
            // Connected and sent on one thread: a connection left idle between the two (the test task waiting for a
            // busy cooperative pool) would meet the server's idle timeout before its request.
            let client = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/slow"))
                return client
            }
            _ = await started.wait()
            try await Task.sleep(for: .milliseconds(100))
            let stage = Self.stage(server, port, client, started.value != nil)
            let closedAt = ContinuousClock.now
            client.closeNow()
            let cancelled = await cancelledAt.wait()
            #expect(cancelled != nil, "the handler's Task was not cancelled after the client closed; before the close: \(stage)")
            if let cancelled {
                #expect(cancelled - closedAt < .milliseconds(500), "cancellation took \(cancelled - closedAt)")
            }
            #expect(await serverSettles { server.inFlightRequestCount == 0 }, "the disconnected request was never released")
            // The close was found by the look at the socket and counted as a close during a request, an orderly end.
            let after = server.statistics
            #expect(after.closedDuringRequest == 1 && after.closedOnPeerCheck == 1 && after.lastPeerCheckErrno == 0, "\(after)")
        }
    }

    @Test func clientDisconnectWhileStreamingCancelsAndWritesThrow() async throws {
        let outcome = ServerTestFlag<String>()
        try await withTestServer(handler: { _, responder in
            do {
                try await responder.startStream(status: 200, headers: [:])
                while true {
                    try await responder.write(Array("tick\n".utf8))
                    try await Task.sleep(for: .milliseconds(10))
                }
            } catch let error as HTTPServerError {
                outcome.set("\(error.kind)/\(responder.isClientGone)")
            } catch {
                outcome.set("cancelled/\(responder.isClientGone)")
            }
        }) { server, port in
            try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/stream"))
                var seen = 0
                _ = client.readResponse { count in
                    seen = count
                    if count == 3 { client.closeNow() }
                }
                _ = seen
            }
            let result = await outcome.wait()
            #expect(result == "clientGone/true" || result == "cancelled/true")
            #expect(await serverSettles { server.inFlightRequestCount == 0 })
        }
    }

    @Test func manyAbruptDisconnectsLeaveNothingBehind() async throws {
        try await withTestServer(handler: { request, responder in
            if request.path == "/wait" {
                try? await Task.sleep(for: .milliseconds(15))
                responder.respond(status: 200, headers: [:], body: Array(repeating: 0x62, count: 1000))
                return
            }
            do {
                try await responder.startStream(status: 200, headers: [:])
                for _ in 0..<50 {
                    try await responder.write(Array(repeating: 0x61, count: 4096))
                    try await Task.sleep(for: .milliseconds(1))
                }
                responder.end()
            } catch {}
        }) { server, port in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<40 {
                    group.addTask {
                        try await RawHTTPClient.blocking {
                            let client = try RawHTTPClient(port: port)
                            client.send(rawGET(i.isMultiple(of: 2) ? "/wait" : "/stream"))
                            usleep(UInt32((i * 7919) % 30) * 1000)
                            client.closeNow()
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(await serverSettles { server.inFlightRequestCount == 0 })
            let after = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/wait"))
                return client.readResponse()
            }
            #expect(after?.body.count == 1000)
        }
    }

    @Test func writerBlockedOnBackPressureIsReleasedWhenTheClientLeaves() async throws {
        let outcome = ServerTestFlag<String>()
        let progress = ServerTestCounter()
        try await withTestServer({ $0.outputHighWaterBytes = 16 * 1024 }, handler: { _, responder in
            do {
                try await responder.startStream(status: 200, headers: [:])
                let chunk = [UInt8](repeating: 0x7A, count: 16 * 1024)
                var sent = 0
                while true {
                    try await responder.write(chunk)
                    sent += chunk.count
                    progress.set(sent)
                }
            } catch let error as HTTPServerError {
                outcome.set("\(error.kind)")
            } catch {
                outcome.set("other: \(error)")
            }
        }) { server, port in
            let client = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/flood"))
                return client
            }
            // Wait until the writer stops making progress (socket buffers full, write suspended).
            // Bounded (30 s): a writer that never starts must fail the test, not hang the run.
            var last = -1
            var rounds = 0
            while progress.value != last || last <= 0, rounds < 300 {
                last = progress.value
                rounds += 1
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(progress.value > 0, "the handler never wrote a chunk; \(Self.stage(server, port, client, progress.value > 0))")
            client.closeNow()
            #expect(await outcome.wait() == "clientGone")
            #expect(await serverSettles { server.inFlightRequestCount == 0 })
        }
    }

    @Test func slowReaderMakesWriteWaitInsteadOfBuffering() async throws {
        let written = ServerTestFlag<Int>()
        let progress = ServerTestCounter()
        let total = 48 * 1024 * 1024
        // Long timeouts: the server cuts a write that makes no progress for `writeStallTimeout`, and a starved full run can pause
        // this slow reader that long (decision 0034).
        try await withTestServer({ $0.outputHighWaterBytes = 64 * 1024; keepIdleConnectionsOpen(&$0) }, handler: { _, responder in
            do {
                try await responder.startStream(status: 200, headers: [:])
                let chunk = [UInt8](repeating: 0x61, count: 64 * 1024)
                var sent = 0
                while sent < total {
                    try await responder.write(chunk)
                    sent += chunk.count
                    progress.set(sent)
                }
                responder.end()
                written.set(sent)
            } catch {}
        }) { _, port in
            let client = try await RawHTTPClient.blocking { try RawHTTPClient(port: port, receiveTimeout: 20) }
            client.send(rawGET("/big"))
            try await Task.sleep(for: .milliseconds(500))
            // Nobody reads: the handler can only get as far as socket buffers plus the high-water mark.
            let stalledAt = progress.value
            #expect(stalledAt < total, "the handler wrote everything although the client read nothing")
            let response = try await RawHTTPClient.blocking { client.readResponse() }
            #expect(response?.body.count == total)
            #expect(await written.wait() == total)
        }
    }
}

final class ServerTestCounter: Sendable {
    private let state = Mutex(0)
    func set(_ value: Int) { state.locked { $0 = value } }
    var value: Int { state.locked { $0 } }
}

import Synchronization
