import Foundation
import Testing
import SkillGateTestSupport
import SkillGateHTTP
@testable import SkillGateServer

/// A provider (or whatever a mistaken `base_url` points at) that echoes the key the gateway sent never gets it to the
/// client or into the log, whether it echoes it in an error's message, parameter or code, or inside a stream.
@Suite struct GatewayKeyEchoTests {
    /// Without a prefix the adapters mask by pattern (`sk-`, `gsk_`, ...), as keys of several compatible providers are.
    static let key = "Ech0KeyWithoutPrefix0123456789abcdefghij"

    static let echoingError = Array(#"{"error":{"message":"Incorrect API key provided: \#(key)","type":"invalid_request_error","param":"\#(key)","code":"\#(key)"}}"#.utf8)
    static let echoingEvent = Array("data: {\"error\":{\"message\":\"stream failed for \(key)\",\"type\":\"server_error\",\"code\":\"\(key)\"}}\n\n".utf8)

    @Test(arguments: [false, true])
    func theEchoedKeyReachesNeitherTheClientNorTheLog(stream: Bool) async throws {
        let up = try UpstreamDouble([stream ? .sse(Self.echoingEvent) : .json(status: 401, body: Self.echoingError, headers: [:])])
        let gw = try ResilienceGateway(providers: [("up-a", up.baseURL)], tier: ["up-a/m"], keys: [("UP_KEY", Self.key)])
        let r = try await gw.send(ResilienceGateway.body(model: "light", stream: stream))
        let body = String(decoding: r.body, as: UTF8.self)
        #expect(r.status >= 400 || body.contains("error"), "the echo is reported as an error: \(r.status) \(body)")
        #expect(up.requests.first?.headers["authorization"] == "Bearer \(Self.key)", "the double saw the key it echoes")
        #expect(!body.contains(Self.key), "the client got the key: \(body)")
        #expect(!body.contains("0123456789abcdefghij"))
        _ = await gw.logLines(atLeast: 1)
        let log = (try? String(contentsOfFile: gw.directory + "/gateway.log", encoding: .utf8)) ?? ""
        #expect(!log.isEmpty)
        #expect(!log.contains("0123456789abcdefghij"), "the log got the key")
        await gw.stop()
        await up.stop()
    }
}
