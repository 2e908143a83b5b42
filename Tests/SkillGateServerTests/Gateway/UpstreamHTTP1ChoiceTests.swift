import Testing
@testable import SkillGateHTTP
import SkillGateTestSupport
@testable import SkillGateServer

/// `upstream_http1` (decision 0051): the gateway proxies a plain-http upstream at a numeric address through its own
/// HTTP/1.1 client unless the config asks for libcurl; the answer is the same either way.
@Suite(.serialized) struct UpstreamHTTP1ChoiceTests {
    @Test(arguments: [(nil, true), ("own", true), ("libcurl", false)] as [(String?, Bool)])
    func theConfiguredClientCarriesThePlainUpstream(setting: String?, own: Bool) async throws {
        let upstream = try UpstreamDouble([OpenAIRecordings.text, OpenAIRecordings.text])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"], upstreamHTTP1: setting)
        for _ in 0..<2 {
            let response = try await gateway.send(ResilienceGateway.body(model: "light"))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self).contains("chat.completion"))
        }
        #expect(upstream.requestCount == 2)
        #expect(gateway.server.http.transfersOnOwnHTTP1Client == (own ? 2 : 0))
        await gateway.stop()
        await upstream.stop()
    }
}
