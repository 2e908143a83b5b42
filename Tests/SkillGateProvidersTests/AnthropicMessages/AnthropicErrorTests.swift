import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

@Suite struct AnthropicErrorTests {
    static func map(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> GatewayError {
        AnthropicTestSupport.format.parseError(status: status, headers: headers, body: Array(body.utf8), deployment: AnthropicTestSupport.deployment)
    }

    @Test func recordedNotFound() throws {
        let e = AnthropicTestSupport.format.parseError(
            status: 404, headers: [:], body: try Fixtures.bytes("anthropic/test_model_name_suggestion_anthropic.0.response.json"),
            deployment: AnthropicTestSupport.deployment)
        #expect(e.kind == .notFound)
        #expect(e.status == 404)
        #expect(e.provider == "anthropic")
        #expect(e.upstreamCode == "not_found_error")
        #expect(e.refusal == .model && e.domain == .provider, "the catalog's model id is the operator's (decision 0106)")
        #expect(e.message.contains("model: claude-sonet-4-5"))
        #expect(e.message.contains("req_011CdufXo8Y2LVfY2veyuQWG"))
    }

    @Test func recordedInvalidRequest() throws {
        let e = AnthropicTestSupport.format.parseError(
            status: 400, headers: [:],
            body: try Fixtures.bytes("anthropic/test_anthropic_explicit_effort_xhigh_unsupported_model_errors.0.response.json"),
            deployment: AnthropicTestSupport.deployment)
        #expect(e.kind == .invalidRequest)
        #expect(e.domain == .caller)
        #expect(e.status == 400)
        #expect(e.message.contains("effort level 'xhigh'"))
        #expect(!e.isRetryable)
        #expect(e.refusal == nil, "the client's own bad input is no refusal: it is not retried elsewhere")
    }

    @Test func overloaded() {
        let e = Self.map(529, #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#)
        #expect(e.kind == .upstreamOverloaded)
        #expect(e.status == 503)
        #expect(e.upstreamStatus == 529)
        #expect(e.isRetryable)
        #expect(e.anthropicType == "overloaded_error")
    }

    @Test func rateLimitKeepsRetryAfter() {
        let e = Self.map(429, #"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#,
                         headers: ["retry-after": "17"])
        #expect(e.kind == .rateLimited)
        #expect(e.status == 429)
        #expect(e.retryAfter == 17)
        #expect(e.isRetryable)
    }

    /// An HTTP date is a `Retry-After` too, read as on every wire format (decision 0108): before, only the OpenAI
    /// format honoured it, and an Anthropic 429 with one was retried at once.
    @Test func aRetryAfterDateIsHonoured() throws {
        let inAMinute = Date().addingTimeInterval(60)
        let e = Self.map(429, #"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#,
                         headers: ["retry-after": Self.httpDate(inAMinute)])
        let wait = try #require(e.retryAfter)
        #expect(wait > 55 && wait <= 60)
    }

    /// `date` as an IMF-fixdate.
    static func httpDate(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: date)
    }

    @Test func authenticationTellsTheOperatorHowToFixTheKey() {
        let e = Self.map(401, #"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_1"}"#)
        #expect(e.message.contains("skillgate keys set <name>`, with the key name `skillgate providers` lists for 'anthropic'"), "\(e.message)")
        #expect(e.domain == .provider)
        #expect(e.refusal == .key, "another deployment may answer (decision 0106)")
        #expect(e.status == 502, "the client's own SkillGate token was fine; the gateway's provider key was not")
        #expect(!e.message.contains(AnthropicTestSupport.secret))
        #expect(!e.anthropicBody().serialized().contains(AnthropicTestSupport.secret))
    }

    /// A compatible upstream that answers 401, 403 or 429 with a body of another shape (OpenAI's
    /// `invalid_request_error`): the status says what happened, so the client never hears its request was wrong.
    @Test(arguments: [(401, 502, GatewayError.Kind.upstreamError, "skillgate keys set <name>"), (403, 502, .upstreamError, "permissions"),
                      (429, 429, .rateLimited, "Retry after")])
    func theStatusWinsOverAnotherShapesType(_ status: Int, _ clientStatus: Int, _ kind: GatewayError.Kind, _ says: String) {
        let e = Self.map(status, #"{"error":{"type":"invalid_request_error","message":"Incorrect API key provided"}}"#)
        #expect(e.status == clientStatus && e.kind == kind, "\(e)")
        #expect(e.domain == .provider)
        #expect(e.refusal == (status == 429 ? nil : .key))
        #expect(e.message.contains(says), "\(e.message)")
    }

    /// The advice names the key as the key store knows it (`skillgate keys set anthropic` is refused by the CLI), and
    /// never the secret: the message reaches clients too.
    @Test(arguments: [(401, "authentication_error"), (403, "permission_error")])
    func aRefusedKeyIsNamedByItsKeyStoreName(_ status: Int, _ type: String) {
        var deployment = AnthropicTestSupport.deployment
        deployment.keyName = "ANTHROPIC_API_KEY_2"
        let body = #"{"type":"error","error":{"type":"\#(type)","message":"invalid x-api-key"},"request_id":"req_1"}"#
        let e = AnthropicTestSupport.format.parseError(status: status, headers: [:], body: Array(body.utf8), deployment: deployment)
        #expect(e.message.contains("`skillgate keys set ANTHROPIC_API_KEY_2`"), "\(e.message)")
        #expect(!e.message.contains("keys set anthropic") && !e.message.contains(AnthropicTestSupport.secret))
    }

    @Test func apiErrorIsARetryableUpstreamError() {
        let e = Self.map(500, #"{"type":"error","error":{"type":"api_error","message":"Internal server error"}}"#)
        #expect(e.kind == .upstreamError)
        #expect(e.status == 502)
        #expect(e.isRetryable)
    }

    @Test(arguments: [
        (502, "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>", "HTML page"),
        (503, "", "empty body"),
        (500, "upstream connect error or disconnect/reset before headers", "non-JSON"),
    ])
    func unexpectedBodiesAreDescribed(status: Int, body: String, says: String) {
        let e = Self.map(status, body)
        #expect(e.message.contains(says))
        #expect(e.message.contains("HTTP \(status)"))
        #expect(e.provider == "anthropic")
        #expect(e.domain == .provider)
    }
}
