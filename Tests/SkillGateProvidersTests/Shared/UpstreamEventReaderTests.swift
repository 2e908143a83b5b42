import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
import Synchronization
import Testing

/// `HTTPLLMClient.stream` reads its call on demand, in the task that asks for the events (`UpstreamEventReader`,
/// decision 0036): the request goes out when the first event is asked for, events arrive in order and end with the
/// body, and a refused call is the provider's error.
@Suite struct UpstreamEventReaderTests {
    /// An OpenAI-compatible double: streams two text deltas and a finish in the wire format of the recordings, or
    /// answers every request with `failStatus`.
    final class StreamingUpstream: HTTPHandler {
        let failStatus: Int?
        private let count = Mutex(0)
        var requests: Int { count.withLock { $0 } }

        init(failStatus: Int? = nil) { self.failStatus = failStatus }

        func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
            count.withLock { $0 += 1 }
            if let failStatus {
                let error = #"{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}"#
                return responder.respond(status: failStatus, headers: ["content-type": "application/json"], body: Array(error.utf8))
            }
            func chunk(_ delta: String, _ finish: String = "null") -> [UInt8] {
                Array((#"data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":\#(delta),"finish_reason":\#(finish)}]}"# + "\n\n").utf8)
            }
            do {
                try await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
                try await responder.write(chunk(#"{"role":"assistant","content":"Hello"}"#))
                try await responder.write(chunk(#"{"content":", world"}"#))
                try await responder.write(chunk("{}", #""stop""#))
                try await responder.write(Array("data: [DONE]\n\n".utf8))
                responder.end()
            } catch {}
        }
    }

    private static func withUpstream(_ upstream: StreamingUpstream,
                                     _ body: (HTTPLLMClient<OpenAIChatFormat>) async throws -> Void) async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: upstream)
        try server.start()
        let deployment = Deployment(providerId: "double", model: "m", baseURL: "http://127.0.0.1:\(server.boundPort)/v1",
                                    auth: .bearer, apiKey: "sk-test")
        let http = HTTPClient()
        do {
            try await body(HTTPLLMClient(format: OpenAIChatFormat(), deployment: deployment, http: http))
        } catch {
            _ = await server.shutdown(deadline: .seconds(5))
            throw error
        }
        _ = await server.shutdown(deadline: .seconds(5))
    }

    private static let question = ChatRequest(model: "m", messages: [Message(role: .user, text: "Say hello")])

    @Test func theRequestGoesOutWhenTheFirstEventIsAskedFor() async throws {
        let upstream = StreamingUpstream()
        try await Self.withUpstream(upstream) { client in
            let events = client.stream(Self.question)
            try await Task.sleep(for: .milliseconds(100))
            #expect(upstream.requests == 0, "the stream sent its request before anyone read it")
            var text = ""
            var finish: FinishReason?
            for try await event in events {
                if case .textDelta(let delta) = event { text += delta }
                if case .finish(let reason) = event { finish = reason }
            }
            #expect(text == "Hello, world")
            #expect(finish == .stop)
            #expect(upstream.requests == 1)
        }
    }

    @Test func aRefusedCallIsTheProvidersError() async throws {
        let upstream = StreamingUpstream(failStatus: 429)
        try await Self.withUpstream(upstream) { client in
            var iterator = client.stream(Self.question).makeAsyncIterator()
            let error = try await #require(throws: GatewayError.self) { _ = try await iterator.next() }
            #expect(error.status == 429)
            #expect(error.kind == .rateLimited)
            #expect(error.message.contains("Rate limit reached"))
            // The stream is over after its error.
            #expect(try await iterator.next() == nil)
        }
    }
}
