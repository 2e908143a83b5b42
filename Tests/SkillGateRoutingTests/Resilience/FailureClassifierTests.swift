import Testing
import SkillGateCore
import SkillGateRouting

/// Which failures move on to the next deployment and which count against a deployment's health (decision 0106).
@Suite struct FailureClassifierTests {
    static func provider(_ kind: GatewayError.Kind, _ status: Int, upstream: Int, refusal: GatewayError.ProviderRefusal? = nil) -> GatewayError {
        GatewayError(domain: .provider, kind: kind, status: status, message: "m", provider: "p", upstreamStatus: upstream, refusal: refusal)
    }

    @Test(arguments: [provider(.upstreamError, 502, upstream: 401, refusal: .key), provider(.upstreamError, 502, upstream: 403, refusal: .key),
                      provider(.notFound, 404, upstream: 404, refusal: .model), provider(.upstreamError, 502, upstream: 400, refusal: .key)])
    func aProviderRefusingTheGatewayMovesOnCountsAndIsNotRetriedThere(_ e: GatewayError) {
        #expect(FailureClassifier.movesOn(e))
        #expect(FailureClassifier.countsAgainstHealth(e))
        #expect(FailureClassifier.excludesDeployment(e))
        #expect(!e.isRetryable, "the same deployment would refuse again: not a time-dependent failure")
    }

    @Test func aServerErrorMovesOnAndMayBeRetriedLater() {
        let e = Self.provider(.upstreamError, 502, upstream: 500)
        #expect(FailureClassifier.movesOn(e) && FailureClassifier.countsAgainstHealth(e) && !FailureClassifier.excludesDeployment(e))
    }

    /// The client's own bad request, and the client's own token refused by the gateway, stay where they are.
    @Test(arguments: [
        GatewayError(domain: .caller, kind: .invalidRequest, status: 400, message: "m", provider: "p", upstreamStatus: 400),
        GatewayError(domain: .provider, kind: .invalidRequest, status: 400, message: "m", provider: "p", upstreamStatus: 400),
        GatewayError(domain: .policy, kind: .authentication, status: 401, message: "invalid token"),
        GatewayError(domain: .policy, kind: .permission, status: 403, message: "outside the scope"),
        GatewayError(domain: .caller, kind: .requestTooLarge, status: 413, message: "m", provider: "p", upstreamStatus: 413),
    ])
    func theClientsOwnFailuresNeitherMoveOnNorCount(_ e: GatewayError) {
        #expect(!FailureClassifier.movesOn(e))
        #expect(!FailureClassifier.countsAgainstHealth(e))
    }

    /// A call that timed out waiting for a free pooled connection never reached the deployment: the next one is tried,
    /// the same one may be tried later, and the deployment's health is not told (decision 0171). A timeout after the
    /// request went out still counts.
    @Test func aWaitForAConnectionMovesOnWithoutCounting() {
        var queued = GatewayError(domain: .provider, kind: .upstreamTimeout, status: 504, message: "t", provider: "p")
        queued.timedOutWaitingForAConnection = true
        #expect(FailureClassifier.movesOn(queued) && !FailureClassifier.countsAgainstHealth(queued))
        #expect(!FailureClassifier.excludesDeployment(queued) && !FailureClassifier.showsDeploymentAnswered(queued))
        var sent = GatewayError(domain: .provider, kind: .upstreamTimeout, status: 504, message: "t", provider: "p")
        sent.timedOutAfterSending = true
        #expect(FailureClassifier.movesOn(sent) && FailureClassifier.countsAgainstHealth(sent))
    }

    @Test func aMissingKeyMovesOnWithoutCounting() {
        let e = GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503, message: "no key", provider: "p")
        #expect(FailureClassifier.movesOn(e) && !FailureClassifier.countsAgainstHealth(e) && FailureClassifier.excludesDeployment(e))
    }
}

/// An answer that was a failed attempt (Gemini's `MALFORMED_FUNCTION_CALL`, decision 0117): tried again, never counted
/// against the deployment, which answered.
@Suite struct FailureClassifierFailedAnswerTests {
    static let failed = GatewayError.failedAnswer(.malformedFunctionCall, usage: Usage(inputTokens: 10), message: "m", provider: "p")

    @Test func aFailedAnswerMovesOnAndShowsTheDeploymentAnswered() {
        #expect(FailureClassifier.movesOn(Self.failed))
        #expect(!FailureClassifier.countsAgainstHealth(Self.failed))
        #expect(!FailureClassifier.excludesDeployment(Self.failed), "the same deployment may answer the next attempt")
        #expect(FailureClassifier.showsDeploymentAnswered(Self.failed))
        #expect(!Self.failed.isRetryable)
    }

    @Test func aFailureWithoutAnAnswerDoesNotShowTheDeploymentAnswered() {
        #expect(!FailureClassifier.showsDeploymentAnswered(GatewayError(domain: .provider, kind: .upstreamTimeout, status: 504, message: "t", provider: "p")))
        #expect(!FailureClassifier.showsDeploymentAnswered(GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503, message: "no key")))
        #expect(FailureClassifier.showsDeploymentAnswered(GatewayError(domain: .provider, kind: .invalidRequest, status: 400, message: "b", upstreamStatus: 400)))
    }

    @Test func theClientReadsTheReasonAsTheCode() {
        #expect(Self.failed.clientCode == "malformed_function_call")
        #expect(GatewayError.invalidRequest("x").clientCode == "invalid_request")
    }
}
