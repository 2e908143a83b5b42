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
        #expect(!mapped(.headTimeoutWhileConnecting).timedOutAfterSending && mapped(.headTimeoutWhileConnecting).message.contains("connecting"))
        #expect(mapped(.firstByteTimeout).timedOutAfterSending && mapped(.idleTimeout).timedOutAfterSending && mapped(.totalTimeout).timedOutAfterSending)
        #expect(!mapped(.connect).timedOutAfterSending && !mapped(.transport).timedOutAfterSending && !mapped(.cancelled).timedOutAfterSending)
    }

    /// Only the wait for a pooled connection says the call never reached the provider for want of a connection (decision
    /// 0171); the connect timeout is the provider's host not answering, and counts against it.
    @Test(arguments: [HTTPClientError.Kind.connectTimeout, .headTimeoutWhileConnecting, .firstByteTimeout, .idleTimeout, .totalTimeout, .connect, .transport])
    func onlyTheConnectionWaitSaysItWaitedForAConnection(_ kind: HTTPClientError.Kind) {
        #expect(HTTPClientError(kind: .connectionWaitTimeout, detail: "d").gatewayError(provider: "acme").timedOutWaitingForAConnection)
        #expect(!HTTPClientError(kind: kind, detail: "d").gatewayError(provider: "acme").timedOutWaitingForAConnection)
    }
}
