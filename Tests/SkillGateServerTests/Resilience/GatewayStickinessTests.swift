import Foundation
import Testing
import SkillGateHTTP
@testable import SkillGateServer

/// Stickiness across a tool-call round trip, through the real gateway.
@Suite(.serialized) struct GatewayStickinessTests {
    typealias R = OpenAIRecordings

    static func followUp(answering id: String) -> String {
        #"[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"\#(id)","type":"function","function":{"name":"lookup","arguments":"{}"}}]},{"role":"tool","tool_call_id":"\#(id)","content":"42"}]"#
    }

    @Test(arguments: [false, true])
    func theFollowUpGoesToTheIssuerThoughTheOtherIsFirstInTheTier(_ streamed: Bool) async throws {
        let a = try UpstreamDouble([R.text])
        let b = try UpstreamDouble([streamed ? R.streamedToolCall : R.toolCalls, R.text])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"])
        let issued = streamed ? "call_ZR5UUuTt3pf61kjwAJIYdVMj" : R.toolCallIds[1]
        if streamed {
            let (status, text) = try await gw.stream(ResilienceGateway.body(model: "up-b/m", stream: true))
            #expect(status == 200 && text.contains(issued))
        } else {
            let first = try await gw.send(ResilienceGateway.body(model: "up-b/m"))
            #expect(first.status == 200 && String(decoding: first.body, as: UTF8.self).contains(issued))
        }
        let r = try await gw.send(ResilienceGateway.body(model: "light", messages: Self.followUp(answering: issued)))
        #expect(r.status == 200)
        #expect(r.headers["x-skillgate-provider"] == "up-b", "the issuer answers the follow-up")
        #expect(a.requestCount == 0)
        #expect(b.requestCount == 2)
        let route = await gw.logLines(atLeast: 2).last?["route"] as? String ?? ""
        #expect(route.contains("sticky: tool call \(issued) issued by up-b/m"), "\(route)")

        let fresh = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(fresh.headers["x-skillgate-provider"] == "up-a", "a request without tool results keeps the tier order")
        await gw.stop()
        await a.stop()
        await b.stop()
    }
}
