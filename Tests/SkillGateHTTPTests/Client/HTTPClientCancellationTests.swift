import Testing
@testable import SkillGateHTTP
import SkillGateTestSupport

/// Cancelling the task, or dropping the body stream, removes the transfer at once: the loopback
/// server sees its connection close within 100 ms.
@Suite struct HTTPClientCancellationTests {
    @Test(arguments: ClientEngine.allCases) func cancellingTheConsumingTaskClosesTheConnection(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.drip(intervalMs: 20))
            defer { server.stop() }
            let client = ClientTestEnvironment.makeClient(engine)
            let firstChunk = AsyncStream<Void>.makeStream()
            let consumer = Task {
                let response = try await client.stream(HTTPRequest(method: "GET", url: server.url()))
                for try await _ in response.body { firstChunk.continuation.yield() }
            }
            for await _ in firstChunk.stream { break }
            let cancelledAt = LoopbackSocket.now()
            consumer.cancel()
            let closedAt = try #require(await server.firstPeerClose(within: .seconds(5)))
            #expect(millisecondsBetween(cancelledAt, closedAt) < 100)
            // AsyncThrowingStream ends iteration of a cancelled task with nil when the task is not
            // waiting inside next() at that moment; when it is, next() throws HTTPClientError.cancelled.
            do {
                try await consumer.value
            } catch let error as HTTPClientError {
                #expect(error.kind == .cancelled)
            }
        }
    }

    @Test(arguments: ClientEngine.allCases) func droppingTheBodyStreamClosesTheConnection(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.drip(intervalMs: 20))
            defer { server.stop() }
            let client = ClientTestEnvironment.makeClient(engine)
            var response: HTTPStreamingResponse? = try await client.stream(HTTPRequest(method: "GET", url: server.url()))
            for try await _ in response!.body { break }
            let droppedAt = LoopbackSocket.now()
            response = nil
            let closedAt = try #require(await server.firstPeerClose(within: .seconds(5)))
            #expect(millisecondsBetween(droppedAt, closedAt) < 100)
        }
    }

    @Test(arguments: ClientEngine.allCases) func cancellingSendWhileWaitingForTheHeadClosesTheConnection(_ engine: ClientEngine) async throws {
        try await onOwnThread {
            let server = try LoopbackServer(.delayedHead(5_000))
            defer { server.stop() }
            let client = ClientTestEnvironment.makeClient(engine)
            let task = Task { try await client.send(HTTPRequest(method: "GET", url: server.url())) }
            while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
            let cancelledAt = LoopbackSocket.now()
            task.cancel()
            let closedAt = try #require(await server.firstPeerClose(within: .seconds(5)))
            #expect(millisecondsBetween(cancelledAt, closedAt) < 100)
            let error = await #expect(throws: HTTPClientError.self) { _ = try await task.value }
            #expect(error?.kind == .cancelled)
        }
    }

    @Test(arguments: ClientEngine.allCases) func alreadyCancelledTaskNeverSendsTheRequest(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.fixed())
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(engine)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(HTTPRequest(method: "GET", url: server.url()))
        }
        let error = await #expect(throws: HTTPClientError.self) { _ = try await task.value }
        #expect(error?.kind == .cancelled)
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.requests.isEmpty)
    }
}
