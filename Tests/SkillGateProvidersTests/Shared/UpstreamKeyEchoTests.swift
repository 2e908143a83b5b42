import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders
import Synchronization
import Testing

/// An upstream that echoes the provider key it was sent, in any part of any answer, never gets it into the error a
/// client (or the log) sees. This is not only about real providers, which mask keys: a compatible provider added to the
/// catalog, or a `base_url` pointing at a debugging proxy or an echo service by mistake, can send it back in full.
/// Each wire format's error paths are covered over real HTTP: a JSON error in the format's shape, a non-JSON error
/// page, a non-JSON 200, and an error inside a stream after 200.
@Suite struct UpstreamKeyEchoTests {
    static let key = "k3y-echoed-0123456789-abcdefghij"

    /// How the double answers: chosen by the first segment of the request's path (the deployment's base URL).
    enum Answer: String, CaseIterable, Sendable {
        case jsonError = "json-error"
        case errorPage = "error-page"
        case plainOK = "plain-ok"
        case streamError = "stream-error"
    }

    /// Echoes the credential it received (whichever header carried it) in the answer its path asks for, in the
    /// shape of the format that header belongs to.
    final class EchoingUpstream: HTTPHandler {
        func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
            let headers = request.headers
            let echoed = headers["x-api-key"] ?? headers["x-goog-api-key"] ?? headers["authorization"] ?? "(none)"
            let anthropic = headers["x-api-key"] != nil, gemini = headers["x-goog-api-key"] != nil
            let answer = Answer(rawValue: request.path.split(separator: "/").first.map(String.init) ?? "") ?? .jsonError
            switch answer {
            case .jsonError:
                let body = anthropic
                    ? #"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key: \#(echoed)"},"request_id":"req_\#(echoed)"}"#
                    : gemini
                    ? #"{"error":{"code":400,"message":"API key not valid: \#(echoed)","status":"INVALID_ARGUMENT"}}"#
                    : #"{"error":{"message":"Incorrect API key provided: \#(echoed)","type":"invalid_request_error","param":"\#(echoed)","code":"\#(echoed)"}}"#
                responder.respond(status: anthropic || !gemini ? 401 : 400, headers: ["content-type": "application/json"], body: Array(body.utf8))
            case .errorPage:
                responder.respond(status: 502, headers: ["content-type": "text/plain"], body: Array("bad gateway; request headers: \(echoed)".utf8))
            case .plainOK:
                responder.respond(status: 200, headers: ["content-type": "text/plain"], body: Array("debug echo: \(echoed)".utf8))
            case .streamError:
                let event = anthropic
                    ? "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"overloaded for \(echoed)\"}}\n\n"
                    : gemini
                    ? "data: {\"error\":{\"code\":500,\"message\":\"internal error for \(echoed)\",\"status\":\"INTERNAL\"}}\n\n"
                    : "data: {\"error\":{\"message\":\"stream failed for \(echoed)\",\"type\":\"server_error\",\"code\":\"\(echoed)\"}}\n\n"
                responder.respond(status: 200, headers: ["content-type": "text/event-stream"], body: Array(event.utf8))
            }
        }
    }

    /// The three wire formats, each with the authentication its providers use.
    enum Format: String, CaseIterable, Sendable {
        case openAIChat, anthropicMessages, gemini
    }

    private static let question = ChatRequest(model: "m", messages: [Message(role: .user, text: "Say hello")])

    /// The error `format`'s client throws for `answer`, from `complete` or from reading a stream.
    private static func thrown(_ format: Format, _ answer: Answer, streaming: Bool, port: Int, http: HTTPClient) async -> (any Error)? {
        let base = "http://127.0.0.1:\(port)/\(answer.rawValue)/v1"
        switch format {
        case .openAIChat:
            let deployment = Deployment(providerId: "echo", model: "m", baseURL: base, auth: .bearer, apiKey: key)
            return await thrown(HTTPLLMClient(format: OpenAIChatFormat(), deployment: deployment, http: http), streaming: streaming)
        case .anthropicMessages:
            let deployment = Deployment(providerId: "echo", model: "m", baseURL: base, auth: .xApiKey, apiKey: key,
                                        extraHeaders: ["anthropic-version": "2023-06-01"])
            return await thrown(HTTPLLMClient(format: AnthropicMessagesFormat(), deployment: deployment, http: http), streaming: streaming)
        case .gemini:
            let deployment = Deployment(providerId: "echo", model: "m", baseURL: base, auth: .xGoogApiKey, apiKey: key)
            return await thrown(HTTPLLMClient(format: GeminiFormat(), deployment: deployment, http: http), streaming: streaming)
        }
    }

    private static func thrown<F: WireFormat>(_ client: HTTPLLMClient<F>, streaming: Bool) async -> (any Error)? {
        do {
            if streaming {
                for try await _ in client.stream(question) {}
            } else {
                _ = try await client.complete(question)
            }
            return nil
        } catch {
            return error
        }
    }

    /// Every text of `error` a client or the log can see.
    private static func texts(_ error: any Error) -> [String] {
        guard let gateway = error as? GatewayError else { return ["\(error)"] }
        return [gateway.message, gateway.clientMessage, gateway.param ?? "", gateway.upstreamCode ?? "", "\(gateway)",
                gateway.openAIBody().serialized(),
                gateway.anthropicBody().serialized()]
    }

    @Test(arguments: Format.allCases, Answer.allCases)
    func theKeyNeverReachesTheError(format: Format, answer: Answer) async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: EchoingUpstream())
        try server.start()
        let http = HTTPClient()
        // A stream's answer is read by streaming; the others by both calls (a non-JSON 200 is a stream's error too).
        for streaming in answer == .streamError ? [true] : [false, true] {
            let error = await Self.thrown(format, answer, streaming: streaming, port: server.boundPort, http: http)
            #expect(error is GatewayError, "\(format) \(answer) streaming \(streaming): \(String(describing: error))")
            for text in error.map(Self.texts) ?? [] {
                #expect(!text.contains(Self.key), "\(format) \(answer) streaming \(streaming) let the key through: \(text)")
            }
        }
        _ = await server.shutdown(deadline: .seconds(5))
    }
}
