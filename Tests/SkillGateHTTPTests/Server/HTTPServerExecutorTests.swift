import Foundation
@testable import SkillGateHTTP
import Testing

/// Handlers run on the event loop that received their request (it is their Task's executor), also
/// after awaiting something another thread completes; blocking work can still be moved off it.
@Suite struct HTTPServerExecutorTests {
    /// The name Foundation's `Thread` gave the current thread ("sg-http-N" on a loop).
    private static func currentThreadName() -> String { Thread.current.name ?? "" }

    /// Resumes from a thread of its own, like an upstream response arriving from the libcurl thread.
    private static func resumedFromAnotherThread() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread { continuation.resume() }.start()
        }
    }

    @Test func handlersRunOnTheirLoopBeforeAndAfterAnAwait() async throws {
        let seen = ServerTestFlag<[String]>()
        try await withTestServer(handler: { _, responder in
            let before = Self.currentThreadName()
            await Self.resumedFromAnotherThread()
            let after = Self.currentThreadName()
            let offLoop = await withTaskExecutorPreference(globalConcurrentExecutor) { Self.currentThreadName() }
            seen.set([before, after, offLoop])
            responder.respond(status: 200, headers: [:], body: Array("ok".utf8))
        }) { _, port in
            // A long read timeout: the handler's hop to the global executor waits for a pool thread,
            // which tests running in parallel may keep busy for seconds.
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 30)
                client.send(rawGET("/"))
                return client.readResponse()
            }
            #expect(response?.status == 200)
        }
        let names = try #require(await seen.wait())
        #expect(names[0].hasPrefix("sg-http-"), "handler started on \(names[0])")
        #expect(names[1] == names[0], "handler resumed on \(names[1]), not on its loop \(names[0])")
        #expect(!names[2].hasPrefix("sg-http-"), "work moved to the global executor still ran on \(names[2])")
    }
}
