import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders
import Testing

/// A 2xx answer without a body where a JSON answer was expected (204 No Content, 205 Reset Content: a `base_url` at a
/// health or webhook endpoint, a proxy's default route) is a 502 that names the status that came, for every wire
/// format; a 200 without a body keeps the formats' own message.
@Suite struct EmptySuccessAnswerTests {
    /// Answers the status named by the first segment of the request's path, with no body.
    final class EmptyAnswers: HTTPHandler {
        func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
            let status = request.path.split(separator: "/").first.flatMap { Int($0) } ?? 200
            responder.respond(status: status, headers: [:], body: [])
        }
    }

    static func client(_ format: String, base: String, http: HTTPClient) -> any LLMClient {
        let deployment = Deployment(providerId: "empty", model: "m", baseURL: base, auth: .bearer, apiKey: "k")
        switch format {
        case "anthropic": return HTTPLLMClient(format: AnthropicMessagesFormat(), deployment: deployment, http: http)
        case "gemini": return HTTPLLMClient(format: GeminiFormat(), deployment: deployment, http: http)
        default: return HTTPLLMClient(format: OpenAIChatFormat(), deployment: deployment, http: http)
        }
    }

    @Test(arguments: ["openai", "anthropic", "gemini"])
    func aBodilessSuccessNamesTheStatusThatCame(format: String) async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: EmptyAnswers())
        try server.start()
        let http = HTTPClient()
        defer { http.shutdown() }
        let question = ChatRequest(model: "m", messages: [Message(role: .user, text: "hi")])
        for status in [204, 205, 200] {
            let client = Self.client(format, base: "http://127.0.0.1:\(server.boundPort)/\(status)/v1", http: http)
            do {
                _ = try await client.complete(question)
                Issue.record("\(format): a \(status) without a body was taken as an answer")
            } catch let error as GatewayError {
                #expect(error.status == 502, "\(format) \(status): \(error)")
                #expect(error.kind == .upstreamProtocol, "\(format) \(status): \(error)")
                if status != 200 {
                    #expect(error.upstreamStatus == status && error.message.contains("status \(status) with no body"), "\(format): \(error.message)")
                }
            }
        }
        _ = await server.shutdown(deadline: .seconds(5))
    }
}
