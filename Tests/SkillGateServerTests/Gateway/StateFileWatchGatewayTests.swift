import Foundation
import Testing
import SkillGateHTTP
@testable import SkillGateServer

/// `state.sqlite` deleted or replaced under a running gateway (decision 0099): requests are still served from the file
/// it opened, but `/readyz` says so and the log says why, until the file is back.
@Suite(.serialized) struct StateFileWatchGatewayTests {
    typealias Harness = GatewayLoopbackTests.Harness

    /// `/readyz` until it answers `status` (the gateway looks at the file every 2 s), at most 6 s.
    static func readiness(_ h: Harness, becoming status: Int) async throws -> HTTPResponse {
        var answer = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/readyz"))
        let deadline = ContinuousClock.now + .seconds(6)
        while answer.status != status, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            answer = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/readyz"))
        }
        return answer
    }

    @Test func aMovedStateFileMakesTheGatewayNotReadyUntilItIsBack() async throws {
        let h = try Harness()
        let path = h.server.services.config.stateDirectory + "/state.sqlite"
        let ready = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/readyz"))
        #expect(rename(path, path + ".moved") == 0)
        let moved = try await Self.readiness(h, becoming: 503)
        let served = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/v1/models",
                                                       headers: ["authorization": "Bearer \(h.token)"]))
        #expect(rename(path + ".moved", path) == 0)
        let back = try await Self.readiness(h, becoming: 200)
        let log = await h.log()
        await h.stop()
        #expect(ready.status == 200)
        #expect(moved.status == 503)
        #expect(String(decoding: moved.body, as: UTF8.self) == #"{"status":"not_ready","reason":"state database moved"}"#)
        #expect(served.status == 200, "requests are still served from the file the gateway opened")
        #expect(back.status == 200, "ready again once the file it opened is back at its path")
        let lines = log.split(separator: "\n")
        let events = lines.filter { $0.contains(#""event":"the state database "#) }
        #expect(events.filter { $0.contains(#""level":"error""#) && $0.contains("was deleted or replaced while the gateway runs") }.count == 1,
                "told once, however many checks saw it: \(events)")
        #expect(events.last?.contains(#""level":"info""#) == true && events.last?.contains("is the file the gateway opened again") == true)
        #expect(lines.contains { $0.contains(#""path":"/readyz""#) && $0.contains("not ready: the state database") },
                "each refused probe's log line says why")
    }
}
