import SkillGateCore
import Testing

/// `GatewayError.redacting` takes a secret out of every text an upstream can fill, and leaves the rest alone.
@Suite struct GatewayErrorRedactionTests {
    static let secret = "sk-live-0123456789abcdef"

    static let echoing = GatewayError(
        domain: .provider, kind: .upstreamError, status: 502,
        message: "openai rejected the key \(secret) (and again: \(secret))", provider: "openai", upstreamStatus: 401,
        param: "Bearer \(secret)", retryAfter: 3, upstreamCode: "bad_key_\(secret)")

    @Test func everyOccurrenceInTheMessageParamAndCodeIsReplaced() {
        let redacted = Self.echoing.redacting(Self.secret)
        #expect(redacted.message == "openai rejected the key [redacted] (and again: [redacted])")
        #expect(redacted.param == "Bearer [redacted]")
        #expect(redacted.upstreamCode == "bad_key_[redacted]")
        #expect(!redacted.description.contains(Self.secret))
        #expect(!redacted.clientMessage.contains(Self.secret))
    }

    @Test func theRestOfTheErrorIsKept() {
        let redacted = Self.echoing.redacting(Self.secret)
        #expect(redacted.domain == .provider && redacted.kind == .upstreamError && redacted.status == 502)
        #expect(redacted.provider == "openai" && redacted.upstreamStatus == 401 && redacted.retryAfter == 3)
    }

    @Test(arguments: [nil, "", "abc"] as [String?])
    func noSecretOrOneTooShortChangesNothing(secret: String?) {
        let error = GatewayError(domain: .provider, kind: .upstreamError, status: 502, message: "abc abc", param: "abc",
                                 upstreamCode: "abc")
        #expect(error.redacting(secret) == error)
    }

    @Test func anErrorWithoutTheSecretIsUnchanged() {
        let error = GatewayError(domain: .caller, kind: .invalidRequest, status: 400, message: "messages is empty; send at least one",
                                 param: "messages")
        #expect(error.redacting(Self.secret) == error)
    }
}
