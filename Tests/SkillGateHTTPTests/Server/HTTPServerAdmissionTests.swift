import Testing
@testable import SkillGateHTTP

/// A connection's admission runs in a step libevent queues at accept; on a loaded machine evhttp could read and complete
/// the connection's first request before it, and that request was answered 503 "could not set this connection up" and
/// closed (decision 0034: the rare stall of the streaming tests). It is now admitted on the spot.
@Suite struct HTTPServerAdmissionTests {
    @Test func aRequestCompleteBeforeItsConnectionsAdmissionStepIsServed() async throws {
        try await withTestServer({ $0.admissionDelayForTests = .milliseconds(300) }, handler: { _, responder in
            responder.respond(status: 200, headers: [:], body: Array("ok".utf8))
        }) { server, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/"))
                return client.readResponse()
            }
            #expect(response?.status == 200, "\(response?.bodyText ?? "no answer")")
            #expect(response?.bodyText == "ok")
            #expect(server.statistics.admittedAhead == 1)
        }
    }

    @Test func aConnectionOverTheCapIsStillRefusedWhenItsRequestCameFirst() async throws {
        try await withTestServer({ $0.admissionDelayForTests = .milliseconds(300); $0.maxConnections = 1; keepIdleConnectionsOpen(&$0) },
                                 handler: { _, responder in responder.respond(status: 200, headers: [:], body: []) }) { server, port in
            let (first, second) = try await RawHTTPClient.blocking {
                let held = try RawHTTPClient(port: port)
                held.send(rawGET("/"))
                let first = held.readResponse()
                let extra = try RawHTTPClient(port: port)
                extra.send(rawGET("/"))
                return (first, extra.readResponse())
            }
            #expect(first?.status == 200)
            #expect(second?.status == 503)
        }
    }
}
