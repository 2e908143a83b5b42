import Testing
@testable import SkillGateHTTP

/// A stream's request body (and libcurl's upload buffer, over HTTP/2) is freed once its response head arrived, so a
/// held stream keeps neither (decision 0037), on libcurl and on the own HTTP/1.1 client (decision 0051) alike.
@Suite struct HTTPClientUploadReleaseTests {
    @Test(arguments: [false, true])
    func aStreamsRequestBodyIsFreedOnceItsHeadArrivedAndTheStreamStillCompletes(ownClient: Bool) async throws {
        let gate = LoopbackGate(), heldBack = LoopbackGate()
        let server = try LoopbackServer(.chunkedAfterGate(["data: one\n\n", "data: [DONE]\n\n"], gate: gate, timeoutMs: 60_000, heldBack: heldBack,
                                                          headers: [("Content-Type", "text/event-stream")]))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(.init(usesOwnHTTP1Client: ownClient))
        let body = Array(#"{"model":"m","stream":true,"messages":[{"role":"user","content":"\#(String(repeating: "x", count: 2000))"}]}"#.utf8)
        let response = try await client.stream(HTTPRequest(url: server.url("/stream"), body: body))
        // Released on the client's loop right after the head, while the body is still held back by the server.
        for _ in 0..<400 where client.streamUploadsReleased == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(client.streamUploadsReleased == 1, "the stream still holds its request body after its head arrived")
        gate.raise()
        #expect(String(decoding: try await response.collectBody(), as: UTF8.self) == "data: one\n\ndata: [DONE]\n\n")
        #expect(heldBack.isRaised)
        #expect(client.transfersOnOwnHTTP1Client == (ownClient ? 1 : 0))
    }

    @Test(arguments: [false, true])
    func wholeBodiesAndBodilessStreamsHaveNothingToRelease(ownClient: Bool) async throws {
        let server = try LoopbackServer(.fixed(body: "ok"))
        defer { server.stop() }
        let client = ClientTestEnvironment.makeClient(.init(usesOwnHTTP1Client: ownClient))
        #expect(try await client.send(HTTPRequest(url: server.url(), body: Array("{}".utf8))).status == 200)
        let stream = try await client.stream(HTTPRequest(method: "GET", url: server.url()))
        #expect(try await stream.collectBody() == Array("ok".utf8))
        #expect(client.streamUploadsReleased == 0)
    }
}
