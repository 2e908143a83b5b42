import Foundation
import Testing
import SkillGateCore
@testable import SkillGateServer

/// `HEAD /admin/api/traffic` (a monitor's or `curl -I`'s check of the console's live tail): the SSE head and nothing
/// else, the connection free for its next request, no tail held open, and a 200 in the log (decision 0137). Before, the
/// tail streamed into nothing for as long as the connection stayed open: a request pipelined behind the HEAD was never
/// answered, and each such connection held one of the 16 tails the gateway allows.
@Suite struct AdminTrafficHeadTests {
    @Test func aHeadOnTheTrafficTailAnswersTheHeadAndHoldsNoTail() async throws {
        let h = try TeamHarness()
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "console", admin: true).token
        let port = h.server.boundPort
        let (head, next) = try await RawSocket.run { () throws -> (String, Int?) in
            let socket = try RawSocket(port: port, receiveTimeout: 5)
            socket.send("HEAD /admin/api/traffic HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(admin)\r\n\r\n")
            let head = socket.read(until: "\r\n\r\n", count: 1)
            socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            return (head, socket.readOneResponse())
        }
        #expect(head.hasPrefix("HTTP/1.1 200") && head.lowercased().contains("content-type: text/event-stream"), "\(head)")
        #expect(next == 200, "the request after the HEAD was not answered")
        #expect(await waitFor { h.server.services.traffic.subscriberCount == 0 }, "the HEAD request kept a traffic tail open")
        let line = await h.logLines().first { $0["method"] == "HEAD" && $0["path"] == "/admin/api/traffic" }
        #expect(line?["status"]?.intValue == 200, "\(String(describing: line))")
    }

    private func waitFor(_ condition: @Sendable () -> Bool) async -> Bool {
        let end = ContinuousClock.now.advanced(by: .seconds(10))
        while ContinuousClock.now < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
