import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

@Suite struct GeminiErrorTests {
    func map(_ status: Int, _ body: [UInt8], headers: HTTPHeaders = [:]) -> GatewayError {
        GeminiFormat().parseError(status: status, headers: headers, body: body, deployment: GeminiTest.deployment)
    }

    func fixture(_ status: Int, _ file: String) throws -> GatewayError {
        map(status, try Fixtures.bytes("gemini/\(file)"))
    }

    @Test func invalidKeyTellsTheOperatorHowToFixIt() throws {
        let e = try fixture(400, "googleai-unary-failure-api-key.json")
        #expect(e.domain == .provider)
        #expect(e.status == 502)
        #expect(e.upstreamStatus == 400)
        #expect(e.upstreamCode == "API_KEY_INVALID")
        #expect(e.refusal == .key, "Google answers a bad key with 400; it is still the gateway's key (decision 0106)")
        #expect(e.message.contains("skillgate keys set <name>`, with the key name `skillgate providers` lists for 'gemini'"), "\(e.message)")
        #expect(!e.message.contains("key1234"), "DebugInfo details echo the key and must not be copied")
        #expect(e.provider == "gemini")
    }

    /// A compatible upstream that answers 401, 403 or 429 with another code in its body: the HTTP status says what
    /// happened, so the client never hears its request was wrong.
    @Test(arguments: [(401, 502, GatewayError.Kind.upstreamError, "skillgate keys set <name>"), (403, 502, .upstreamError, "may use this model"),
                      (429, 429, .rateLimited, "quota")])
    func theHTTPStatusCountsBesideTheBodysCode(_ status: Int, _ clientStatus: Int, _ kind: GatewayError.Kind, _ says: String) {
        let e = map(status, Array(#"{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}"#.utf8))
        #expect(e.status == clientStatus && e.kind == kind, "\(e)")
        #expect(e.domain == .provider)
        #expect(e.refusal == (status == 429 ? nil : .key))
        #expect(e.message.contains(says), "\(e.message)")
    }

    /// The advice names the key as the key store knows it (`skillgate keys set gemini` is refused by the CLI), and
    /// never the secret: the message reaches clients too.
    @Test(arguments: [(400, "googleai-unary-failure-api-key.json"), (403, nil)] as [(Int, String?)])
    func aRefusedKeyIsNamedByItsKeyStoreName(_ status: Int, _ file: String?) throws {
        var deployment = GeminiTest.deployment
        deployment.keyName = "GEMINI_API_KEY_2"
        let body = try file.map { try Fixtures.bytes("gemini/\($0)") }
            ?? Array(#"{"error":{"code":403,"message":"Method doesn't allow unregistered callers.","status":"PERMISSION_DENIED"}}"#.utf8)
        let e = GeminiFormat().parseError(status: status, headers: [:], body: body, deployment: deployment)
        #expect(e.message.contains("`skillgate keys set GEMINI_API_KEY_2`"), "\(e.message)")
        #expect(!e.message.contains("keys set gemini") && !e.message.contains(deployment.apiKey!))
    }

    @Test func unknownModelIsNotFound() throws {
        let e = try fixture(404, "googleai-unary-failure-unknown-model.json")
        #expect(e.kind == .notFound)
        #expect(e.status == 404)
        #expect(e.refusal == .model)
        #expect(e.message.contains("gemini-5.0-flash"))
        #expect(!e.message.contains("ORIGINAL ERROR"))
    }

    @Test func quotaExceededIsRateLimited() throws {
        let e = try fixture(429, "vertexai-unary-failure-quota-exceeded.json")
        #expect(e.kind == .rateLimited)
        #expect(e.status == 429)
        #expect(e.isRetryable)
        #expect(e.retryAfter == nil)
        #expect(e.upstreamCode == "RATE_LIMIT_EXCEEDED")
    }

    @Test func retryInfoGivesRetryAfter() throws {
        let e = try fixture(429, "google-429-retry-info.json")
        #expect(e.kind == .rateLimited)
        #expect(e.retryAfter == 34.4)
        #expect(e.message.contains("34.4"))
    }

    /// `retryDelay: "1e300s"` (or `inf`, or a `Retry-After` of either) stopped the gateway: the delay was turned into an
    /// integer for the message before anything bounded it (decision 0096). It is now bounded first, like every
    /// upstream's delay, to an hour; a delay that is not a finite number of seconds is none.
    @Test(arguments: [(#""retryDelay":"1e300s""#, nil, 3600.0), (#""retryDelay":"1e19s""#, nil, 3600), (#""retryDelay":"infs""#, nil, nil),
                      (#""retryDelay":"nans""#, nil, nil), (#""retryDelay":"-4s""#, nil, nil), (#""retryDelay":"3599.5s""#, nil, 3599.5),
                      (#""x":1"#, "1e300", 3600), (#""x":1"#, "inf", nil)] as [(String, String?, Double?)])
    func anAbsurdDelayIsBoundedBeforeItIsShown(_ detail: String, _ header: String?, _ expected: Double?) {
        let body = #"{"error":{"code":429,"message":"Resource has been exhausted.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo",\#(detail)}]}}"#
        let e = map(429, Array(body.utf8), headers: header.map { ["retry-after": $0] } ?? [:])
        #expect(e.status == 429)
        #expect(e.retryAfter == expected)
        #expect(e.message.contains(expected.map { $0 == 3600 ? "Retry after 3600 s" : "Retry after" } ?? "Retry later"), "\(e.message)")
    }

    @Test func wholeSecondRetryDelayAndHeaderFallback() {
        let body = #"{"error":{"code":429,"message":"Resource has been exhausted.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"27s"}]}}"#
        #expect(map(429, Array(body.utf8)).retryAfter == 27)
        let bare = #"{"error":{"code":429,"message":"Resource has been exhausted.","status":"RESOURCE_EXHAUSTED"}}"#
        #expect(map(429, Array(bare.utf8), headers: ["retry-after": "12"]).retryAfter == 12)
        // An HTTP date, read as on every wire format (decision 0108).
        let date = AnthropicErrorTests.httpDate(Date().addingTimeInterval(60))
        let wait = map(429, Array(bare.utf8), headers: ["retry-after": date]).retryAfter ?? 0
        #expect(wait > 55 && wait <= 60, "\(wait)")
    }

    @Test(arguments: [
        (500, "INTERNAL", GatewayError.Kind.upstreamError, 502, true),
        (503, "UNAVAILABLE", .upstreamUnavailable, 503, true),
        (504, "DEADLINE_EXCEEDED", .upstreamTimeout, 504, true),
        (400, "INVALID_ARGUMENT", .invalidRequest, 400, false),
        (403, "PERMISSION_DENIED", .upstreamError, 502, false),
    ])
    func statusMapping(code: Int, status: String, kind: GatewayError.Kind, clientStatus: Int, retryable: Bool) {
        let body = #"{"error":{"code":\#(code),"message":"Something happened.","status":"\#(status)"}}"#
        let e = map(code, Array(body.utf8))
        #expect(e.kind == kind)
        #expect(e.status == clientStatus)
        #expect(e.isRetryable == retryable)
        #expect(e.upstreamStatus == code)
        #expect(e.message.contains("Something happened."))
    }

    @Test func arrayWrappedErrorIsRead() {
        let body = #"[{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}]"#
        #expect(map(503, Array(body.utf8)).kind == .upstreamUnavailable)
    }

    @Test func htmlEmptyAndTextBodies() {
        let html = map(502, Array("<!DOCTYPE html><html><body>Bad Gateway</body></html>".utf8), headers: ["content-type": "text/html"])
        #expect(html.message.contains("HTML page"))
        #expect(html.status == 502 && html.upstreamStatus == 502)
        let empty = map(500, [])
        #expect(empty.message.contains("empty body"))
        let text = map(503, Array("upstream connect error".utf8))
        #expect(text.kind == .upstreamUnavailable)
        #expect(text.message.contains("upstream connect error"))
    }

    @Test func theKeyIsNeverEchoed() {
        let key = GeminiTest.deployment.apiKey!
        let body = #"{"error":{"code":400,"message":"API key \#(key) not valid.","status":"INVALID_ARGUMENT"}}"#
        let e = map(400, Array(body.utf8))
        #expect(!e.message.contains(key))
        #expect(!e.openAIBody().serialized().contains(key))
        let plain = map(500, Array("bad key \(key)".utf8))
        #expect(!plain.message.contains(key))
    }
}
