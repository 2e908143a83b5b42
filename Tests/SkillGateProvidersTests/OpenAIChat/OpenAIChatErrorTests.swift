import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// What one recorded error body must map to.
struct ErrorExpectation: Sendable, CustomTestStringConvertible {
    var file: String
    var status: Int
    var kind: GatewayError.Kind
    var clientStatus: Int
    var param: String?
    var upstreamCode: String
    var testDescription: String { file }
}

@Suite struct OpenAIChatErrorTests {
    let format = OpenAIChatFormat()
    let deployment = OpenAIChatTestSupport.deployment

    static let fixtures: [ErrorExpectation] = [
        ErrorExpectation(file: "reasoning-model-legacy-parameter-error.json", status: 400, kind: .invalidRequest,
                         clientStatus: 400, param: "max_tokens", upstreamCode: "unsupported_parameter"),
        ErrorExpectation(file: "test_inferred_model_name_suggestion.0.response.json", status: 400, kind: .notFound,
                         clientStatus: 404, param: "model", upstreamCode: "model_not_found"),
        ErrorExpectation(file: "test_openai_o1_mini_system_role_developer.0.response.json", status: 400, kind: .invalidRequest,
                         clientStatus: 400, param: "messages[0].role", upstreamCode: "unsupported_value"),
    ]

    @Test(arguments: fixtures)
    func recordedErrorBodiesMap(_ e: ErrorExpectation) throws {
        let body = try Fixtures.bytes("openai/\(e.file)")
        let upstreamMessage = try #require(try JSONValue.parse(body)["error"]?["message"]?.stringValue)
        let error = format.parseError(status: e.status, headers: ["content-type": "application/json"], body: body, deployment: deployment)
        #expect(error.kind == e.kind)
        #expect(error.status == e.clientStatus)
        #expect(error.upstreamStatus == e.status)
        #expect(error.provider == "openai")
        #expect(error.param == e.param)
        #expect(error.upstreamCode == e.upstreamCode)
        #expect(error.message.contains(upstreamMessage))
    }

    @Test(arguments: [401, 403])
    func authFailuresAreTheOperatorsProblemAndNeverLeakTheKey(status: Int) {
        let body = #"{"error":{"message":"Incorrect API key provided: sk-test-secret-key-0123456789. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#
        let e = format.parseError(status: status, headers: [:], body: Array(body.utf8), deployment: deployment)
        #expect(e.kind == .upstreamError)
        #expect(e.domain == .provider, "the provider refused the gateway: another deployment may answer (decision 0106)")
        #expect(e.refusal == .key)
        #expect(e.status == 502)
        #expect(e.message.contains("skillgate keys set <name>`, with the key name `skillgate providers` lists for 'openai'"), "\(e.message)")
        #expect(!e.message.contains("sk-test-secret-key-0123456789"))
        #expect(!e.openAIBody().serialized().contains("secret-key"))
    }

    /// The gateway sends only catalog model ids: a model the provider does not know (404, or `model_not_found` with
    /// another status) is the operator's, and marked so the executor moves on (decision 0106); a 402 refuses the account.
    @Test(arguments: [(404, #"{"error":{"message":"The model `gpt-4-0314` has been deprecated","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#, GatewayError.ProviderRefusal.model, 404),
                      (400, #"{"error":{"message":"The model `o9` does not exist","type":"invalid_request_error","param":"model","code":"model_not_found"}}"#, .model, 404),
                      (404, #"{"error":{"message":"Not Found","type":"invalid_request_error"}}"#, .model, 404),
                      (402, #"{"error":{"message":"Insufficient credits","code":402}}"#, .key, 502)])
    func refusalsOfTheModelOrAccountAreTheOperatorsAndMarked(_ status: Int, _ body: String, _ refusal: GatewayError.ProviderRefusal, _ clientStatus: Int) {
        let e = format.parseError(status: status, headers: [:], body: Array(body.utf8), deployment: deployment)
        #expect(e.refusal == refusal && e.domain == .provider && e.status == clientStatus, "\(e)")
        #expect(e.message.contains("operator"), "\(e.message)")
    }

    @Test(arguments: [400, 422])
    func theClientsBadInputIsNoRefusal(_ status: Int) {
        let body = #"{"error":{"message":"Invalid value for 'temperature'","type":"invalid_request_error","param":"temperature","code":"invalid_value"}}"#
        let e = format.parseError(status: status, headers: [:], body: Array(body.utf8), deployment: deployment)
        #expect(e.refusal == nil && e.domain == .caller && e.status == 400)
    }

    /// The advice names the key as the key store knows it, the pooled name that was refused included
    /// (`skillgate keys set openai` is refused by the CLI), and never the secret: the message reaches clients too.
    @Test(arguments: [401, 403])
    func aRefusedKeyIsNamedByItsKeyStoreName(_ status: Int) {
        var pooled = deployment
        pooled.keyName = "OPENAI_API_KEY_2"
        let body = #"{"error":{"message":"Incorrect API key provided: sk-test-secret-key-0123456789.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#
        let e = format.parseError(status: status, headers: [:], body: Array(body.utf8), deployment: pooled)
        #expect(e.message.contains("`skillgate keys set OPENAI_API_KEY_2`"), "\(e.message)")
        #expect(!e.message.contains("keys set openai") && !e.openAIBody().serialized().contains("sk-test-secret-key-0123456789"))
    }

    @Test func maskedKeysEchoedByTheProviderAreScrubbedToo() {
        let body = #"{"error":{"message":"Incorrect API key provided: sk-proj-abcd************************wxyz.","type":"invalid_request_error","code":"invalid_api_key"}}"#
        let e = format.parseError(status: 401, headers: [:], body: Array(body.utf8), deployment: deployment)
        #expect(!e.message.contains("abcd"))
        #expect(e.message.contains("sk-…[redacted]"))
    }

    @Test(arguments: [
        (HTTPHeaders([("retry-after", "7")]), 7.0),
        (HTTPHeaders([("retry-after-ms", "1500")]), 1.5),
        (HTTPHeaders([("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")]), 0.0),  // a date in the past: retry now
    ])
    func rateLimitsCarryRetryAfter(headers: HTTPHeaders, seconds: Double) {
        let body = #"{"error":{"message":"Rate limit reached for gpt-4o-mini","type":"requests","param":null,"code":"rate_limit_exceeded"}}"#
        let e = format.parseError(status: 429, headers: headers, body: Array(body.utf8), deployment: deployment)
        #expect(e.kind == .rateLimited)
        #expect(e.status == 429)
        #expect(e.retryAfter == seconds)
        #expect(e.isRetryable)
    }

    @Test func retryAfterAsAFutureHTTPDate() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        let s = OpenAIChatRetryAfter.seconds(from: ["retry-after": "Sun, 06 Nov 1994 08:50:07 GMT"], now: now)
        #expect(s == 30)
        #expect(OpenAIChatRetryAfter.seconds(from: ["retry-after": "soon"], now: now) == nil)
    }

    @Test(arguments: [
        (500, GatewayError.Kind.upstreamError, 502), (502, .upstreamError, 502), (503, .upstreamUnavailable, 503),
        (529, .upstreamOverloaded, 503), (504, .upstreamTimeout, 504), (404, .notFound, 404), (422, .invalidRequest, 400),
    ])
    func statusesMapToKinds(status: Int, kind: GatewayError.Kind, clientStatus: Int) {
        let body = #"{"error":{"message":"something","type":"server_error"}}"#
        let e = format.parseError(status: status, headers: [:], body: Array(body.utf8), deployment: deployment)
        #expect(e.kind == kind)
        #expect(e.status == clientStatus)
        #expect(e.upstreamStatus == status)
    }

    @Test func htmlPageFromAProxy() {
        let html = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center></body></html>"
        let e = format.parseError(status: 502, headers: ["content-type": "text/html"], body: Array(html.utf8), deployment: deployment)
        #expect(e.message.contains("received an HTML page (status 502) instead of JSON — a proxy in front of the provider failed"))
        #expect(e.provider == "openai")
        #expect(e.status == 502)
    }

    /// nginx, Cloudflare or another proxy answers 429 or 408 with a page, not an error object: the status still says
    /// what happened (the Anthropic and Gemini adapters already map such bodies by status).
    @Test(arguments: [
        (429, "<html><head><title>429 Too Many Requests</title></head><body><center><h1>429 Too Many Requests</h1></center><hr><center>nginx</center></body></html>", "text/html",
         GatewayError.Kind.rateLimited, 429, "HTML page"),
        (429, "error code: 1015", "text/plain", .rateLimited, 429, "error code: 1015"),
        (429, "", "text/plain", .rateLimited, 429, "empty body"),
        (408, "<html><body><h1>408 Request Time-out</h1></body></html>", "text/html", .upstreamTimeout, 504, "HTML page"),
        (502, "<html><head><title>502 Bad Gateway</title></head></html>", "text/html", .upstreamError, 502, "HTML page"),
    ])
    func unreadableBodiesAreMappedByTheirStatus(_ status: Int, _ body: String, _ contentType: String, _ kind: GatewayError.Kind,
                                                 _ clientStatus: Int, _ says: String) {
        let e = format.parseError(status: status, headers: ["content-type": contentType, "retry-after": "12"], body: Array(body.utf8), deployment: deployment)
        #expect(e.kind == kind && e.status == clientStatus && e.upstreamStatus == status, "\(e)")
        #expect(e.isRetryable, "a proxy's \(status) page is as retryable as the provider's own")
        #expect(e.retryAfter == 12)
        #expect(e.message.contains(says) && e.message.contains("retry"), "\(e.message)")
    }

    /// An authenticating proxy (or the provider) answering 401 or 403 with a page: the credentials are refused, so it is
    /// a key refusal as with an error object (the fallback moves on at once; decision 0110), naming the key to replace.
    @Test(arguments: [
        (401, "<html><head><title>401 Authorization Required</title></head><body><center><h1>401 Authorization Required</h1></center></body></html>", "text/html", "HTML page"),
        (403, "<html><head><title>Attention Required! | Cloudflare</title></head></html>", "text/html", "HTML page"),
        (403, "Forbidden", "text/plain", "Forbidden"),
        (401, "", "text/plain", "empty body"),
    ])
    func unreadableKeyRefusalsAreRefusals(_ status: Int, _ body: String, _ contentType: String, _ says: String) {
        var named = deployment
        named.keyName = "OPENAI_API_KEY_2"
        let e = format.parseError(status: status, headers: ["content-type": contentType], body: Array(body.utf8), deployment: named)
        #expect(e.refusal == .key, "\(e)")
        #expect(e.status == 502 && e.upstreamStatus == status && e.domain == .provider)
        #expect(e.message.contains(says) && e.message.contains("OPENAI_API_KEY_2"), "\(e.message)")
        #expect(!e.message.contains(deployment.apiKey ?? "no key"))
    }

    @Test func emptyAndNonJSONBodiesSayWhatArrived() {
        let empty = format.parseError(status: 500, headers: [:], body: [], deployment: deployment)
        #expect(empty.message.contains("empty body"))
        #expect(empty.message.contains("500"))
        let text = format.parseError(status: 500, headers: [:], body: Array("upstream connect error".utf8), deployment: deployment)
        #expect(text.message.contains("not JSON"))
        #expect(text.message.contains("upstream connect error"))
    }

    @Test func compatibleServerVariants() {
        let plain = format.parseError(status: 400, headers: [:], body: Array(#"{"error":"model is required"}"#.utf8), deployment: deployment)
        #expect(plain.message.contains("model is required"))
        let array = format.parseError(status: 429, headers: [:], body: Array(#"[{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}]"#.utf8), deployment: deployment)
        #expect(array.kind == .rateLimited)
        #expect(array.message.contains("Quota exceeded"))
        let detail = format.parseError(status: 422, headers: [:], body: Array(#"{"detail":"field required"}"#.utf8), deployment: deployment)
        #expect(detail.message.contains("field required"))
    }
}
