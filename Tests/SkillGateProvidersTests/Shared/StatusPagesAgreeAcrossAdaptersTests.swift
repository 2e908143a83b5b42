import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// Every adapter maps a 408 and a 404 that carry no error object of its own alike (decision 0154): a 408 (a proxy's page,
/// plain text, or another shape's `invalid_request_error`) is a timeout, tried again and fallen back from, and a 404 page
/// is the catalog's model id (or the base URL) unknown there, a model refusal handed over to the next deployment at once.
/// An attack round found the Anthropic adapter telling the client its own request was wrong (400) for a 408, and the
/// OpenAI adapter telling it to retry (502) for a 404 page, neither ever trying the next deployment.
@Suite struct StatusPagesAgreeAcrossAdaptersTests {
    /// The three wire formats, each with a deployment of its own.
    static let adapters: [(name: String, format: any WireFormat, deployment: Deployment)] = [
        ("openai-chat", OpenAIChatFormat(), OpenAIChatTestSupport.deployment),
        ("anthropic-messages", AnthropicTestSupport.format, AnthropicTestSupport.deployment),
        ("gemini", GeminiFormat(), GeminiTest.deployment),
    ]

    static let timeoutBodies: [(body: String, contentType: String)] = [
        ("<html><body><h1>408 Request Time-out</h1></body></html>", "text/html"),
        ("request timeout", "text/plain"),
        (#"{"error":{"type":"invalid_request_error","message":"request timed out"}}"#, "application/json"),
    ]

    static let notFoundPages: [(body: String, contentType: String)] = [
        ("<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1><hr>nginx</body></html>", "text/html"),
        ("404 page not found", "text/plain"),
    ]

    @Test(arguments: 0..<3, 0..<3)
    func a408IsATimeoutThatFallsBack(_ adapter: Int, _ body: Int) {
        let (name, format, deployment) = Self.adapters[adapter]
        let (text, contentType) = Self.timeoutBodies[body]
        let e = format.parseError(status: 408, headers: ["content-type": contentType], body: Array(text.utf8), deployment: deployment)
        #expect(e.kind == .upstreamTimeout && e.status == 504 && e.domain == .provider, "\(name): \(e)")
        #expect(e.isRetryable, "\(name): a 408 must be tried again or fallen back from: \(e)")
        #expect(e.upstreamStatus == 408, "\(name): \(e)")
    }

    @Test(arguments: 0..<3, 0..<2)
    func a404PageHandsOverAtOnce(_ adapter: Int, _ page: Int) {
        let (name, format, deployment) = Self.adapters[adapter]
        let (text, contentType) = Self.notFoundPages[page]
        let e = format.parseError(status: 404, headers: ["content-type": contentType], body: Array(text.utf8), deployment: deployment)
        #expect(e.kind == .notFound && e.status == 404 && e.refusal == .model && e.domain == .provider, "\(name): \(e)")
        #expect(e.upstreamStatus == 404, "\(name): \(e)")
        #expect(e.message.contains("model id"), "\(name): the message should say what the operator fixes: \(e.message)")
    }
}
