import Foundation
import SkillGateHTTP
import Testing

/// How a stop ends: `shutdown` says whether the drain was clean, and the exit status follows from that,
/// not from the signal's number. (The signal path itself is `HTTPServerShutdownTests.runUntilSignalShutsDownOnTheSignal`
/// and `ServeProcessTests`: libdispatch does not deliver a signal to a second signal source in one process.)
@Suite("HTTPServer stop outcome", .serialized)
struct HTTPServerSignalTests {
    static func server(_ handler: @escaping @Sendable (HTTPServerRequest, HTTPResponder) async -> Void) throws -> HTTPServer {
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loops: 1), handler: ServerTestHandler(handler))
        try server.start()
        return server
    }

    @Test func exitStatusIsZeroAfterACleanDrainAndOneAfterACutOff() {
        #expect(HTTPServer.Stop(signal: SIGTERM, drainedCleanly: true).exitStatus == 0)
        #expect(HTTPServer.Stop(signal: SIGINT, drainedCleanly: true).exitStatus == 0)
        #expect(HTTPServer.Stop(signal: SIGTERM, drainedCleanly: false).exitStatus == 1)
    }

    @Test func shutdownWithNothingRunningIsClean() async throws {
        let server = try Self.server { _, responder in responder.respond(status: 200, headers: [:], body: []) }
        let port = server.boundPort
        let answer = try await RawHTTPClient.blocking {
            let client = try RawHTTPClient(port: port)
            client.send(rawGET("/"))
            return client.readResponse()?.status
        }
        #expect(answer == 200)
        #expect(await server.shutdown(deadline: .seconds(2)))
        #expect(await server.shutdown(deadline: .seconds(2)), "a second call reports the first one's outcome")
    }

    @Test func requestsCutOffAtTheDeadlineMakeTheDrainUnclean() async throws {
        let started = ServerTestFlag<Bool>()
        let server = try Self.server { _, responder in
            started.set(true)
            try? await Task.sleep(for: .seconds(10))
            responder.respond(status: 200, headers: [:], body: [])
        }
        let port = server.boundPort
        let client = Task {
            try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                client.send(rawGET("/slow"))
                return client.readResponse()?.status
            }
        }
        _ = await started.wait()
        #expect(await server.shutdown(deadline: .milliseconds(200)) == false)
        _ = try? await client.value
    }
}
