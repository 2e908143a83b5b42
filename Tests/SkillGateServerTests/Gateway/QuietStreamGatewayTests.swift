import Foundation
import Testing
@testable import SkillGateServer

/// A streamed chat whose model goes quiet mid-stream for longer than the gateway's read timeouts reaches its client
/// whole (decision 0038): those timeouts bound reading a request, not the wait for the next event.
@Suite struct QuietStreamGatewayTests {
    @Test func aModelQuietLongerThanTheReadTimeoutsStillStreamsToTheEnd() async throws {
        let recorded = OpenAIRecordings.streamedText
        guard case .sse(let bytes) = recorded else { Issue.record("the recording is not an event stream"); return }
        let upstream = try UpstreamDouble([.ssePaused(bytes, after: 2, pause: .milliseconds(1500))])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"],
                                            limits: #"{"header_timeout_seconds":0.5,"body_timeout_seconds":0.5}"#)
        let (status, text) = try await gateway.stream(ResilienceGateway.body(model: "light", stream: true))
        await gateway.stop()
        await upstream.stop()
        #expect(status == 200)
        #expect(text.hasSuffix("data: [DONE]\n\n"), "the stream was cut: \(text.suffix(300))")
    }
}
