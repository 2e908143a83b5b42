import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// A timeout of the gateway's own HTTP client says whether the request had gone out when it fired (decision 0130).
@Suite struct TimeoutMappingTests {
    /// Only the timeouts after the request went out say so; the connect timeout fires before (decision 0130), and so
    /// does the head timeout while the call still waits for a pooled connection (decision 0162).
    @Test func onlyTimeoutsAfterTheRequestWentOutSaySo() {
        func mapped(_ kind: HTTPClientError.Kind) -> GatewayError { HTTPClientError(kind: kind, detail: "d").gatewayError(provider: "acme") }
        #expect(!mapped(.connectTimeout).timedOutAfterSending && mapped(.connectTimeout).kind == .upstreamTimeout)
        #expect(!mapped(.connectionWaitTimeout).timedOutAfterSending && mapped(.connectionWaitTimeout).kind == .upstreamTimeout)
        #expect(mapped(.connectionWaitTimeout).message.contains("upstream_connections_per_host"))
        #expect(mapped(.firstByteTimeout).timedOutAfterSending && mapped(.idleTimeout).timedOutAfterSending && mapped(.totalTimeout).timedOutAfterSending)
        #expect(!mapped(.connect).timedOutAfterSending && !mapped(.transport).timedOutAfterSending && !mapped(.cancelled).timedOutAfterSending)
    }
}
