import Foundation
import Testing
import SkillGateHTTP
@testable import SkillGateServer

/// While the gateway drains (SIGTERM), requests on connections opened before it are served, each reply closing its
/// connection, and `/readyz` says it is shutting down, so a load balancer stops sending (decision 0145). Before, both
/// were answered with the server's own 503, and a rolling restart lost the requests that came in its first moments.
@Suite struct GatewayDrainTests {
    @Test func connectionsOpenBeforeTheDrainAreServedAndReadinessSaysShuttingDown() async throws {
        // The first answer holds the drain open until the test stops the upstream (a loaded parallel run can take seconds
        // between two steps: a fixed delay once ran out before the test's requests were sent).
        let upstream = try UpstreamDouble([.delayed(.seconds(60), OpenAIRecordings.text), OpenAIRecordings.text, OpenAIRecordings.serverError])
        // One attempt, and a server error for anything after the test's own request: a retry of the held answer, once its
        // upstream is cut, could go out on a kept connection to the draining double, which (as any server now) answers
        // it (a stress run's 200).
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"], resilience: #"{"max_attempts":1}"#,
                                            firstByteSeconds: 80, limits: #"{"shutdown_grace_seconds":90}"#)
        let port = gateway.server.boundPort
        // Two keep-alive connections, opened and used before the drain.
        let (probe, client) = try await RawSocket.run { () -> (RawSocket, RawSocket) in
            let probe = try RawSocket(port: port, receiveTimeout: 20)
            let client = try RawSocket(port: port, receiveTimeout: 20)
            for socket in [probe, client] {
                socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                guard socket.readOneResponse() == 200 else { throw POSIXError(.EPROTO) }
            }
            return (probe, client)
        }
        // A whole answer the model takes two seconds over holds the drain open.
        let held = Task { try await gateway.send(ResilienceGateway.body(model: "light")) }
        while upstream.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        let stopping = Task { await gateway.server.shutdown() }
        while !gateway.server.isShuttingDown { try await Task.sleep(for: .milliseconds(2)) }

        let body = String(decoding: ResilienceGateway.body(model: "light"), as: UTF8.self)
        let (readiness, answer) = try await RawSocket.run { [token = gateway.token] in
            probe.send("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n")
            client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return (probe.readAll(), client.readAll())
        }
        await upstream.stop()  // the held answer ends (its upstream gone), and with it the drain
        let finished = try await held.value
        await stopping.value
        await gateway.stop()

        #expect(readiness.text.hasPrefix("HTTP/1.1 503"), "\(readiness.text)")
        #expect(readiness.text.contains(#""reason":"shutting down""#), "\(readiness.text)")
        #expect(answer.text.hasPrefix("HTTP/1.1 200"), "a request on a connection open before the drain was not served: \(answer.text.prefix(300))")
        #expect(answer.text.lowercased().contains("connection: close"), "\(answer.text.prefix(300))")
        #expect(answer.text.contains(#""object":"chat.completion""#), "\(answer.text.suffix(300))")
        #expect(readiness.closed && answer.closed, "a drain-time reply left its connection open")
        #expect(finished.status >= 500, "the held answer ended when its upstream stopped: \(finished.status)")
    }
}
