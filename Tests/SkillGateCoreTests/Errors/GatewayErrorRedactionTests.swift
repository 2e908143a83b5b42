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

    /// An upstream that echoes part of the key gives that part away: any run of 12 bytes or more of the key is redacted;
    /// a provider's own masked echo (the prefix and the last four) is left for the operator.
    @Test(arguments: [
        ("the key sk-SECRETKEY-probe-1 is wrong", "the key [redacted] is wrong"),
        ("unknown key SECRETKEY-probe-1234567890abcdef.", "unknown key [redacted]."),
        ("keys: 4567890abcdef and sk-SECRETKEY", "keys: [redacted] and [redacted]"),
        ("Incorrect API key provided: sk-SECRE****************cdef", "Incorrect API key provided: sk-SECRE****************cdef"),
        ("nothing of it here", "nothing of it here"),
    ])
    func piecesOfTheKeyAreRedactedToo(_ message: String, _ shown: String) {
        let error = GatewayError(domain: .provider, kind: .upstreamError, status: 502, message: message)
        #expect(error.redacting("sk-SECRETKEY-probe-1234567890abcdef").message == shown)
    }
}
