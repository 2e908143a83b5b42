import Foundation
import SkillGateClient
import Testing
import SkillGateTestSupport

/// Each kind of `SkillGateClientError`, from a real gateway where it can give it, else from a stub.
@Suite(.serialized) struct SkillGateClientErrorTests {
    static let hello = ChatCompletionRequest(model: "light", messages: [.user("Hello")])

    /// The error the first `next()` of `stream` throws.
    static func firstError<T>(_ stream: AsyncThrowingStream<T, any Error>) async -> (any Error)? {
        do {
            for try await _ in stream {}
            return nil
        } catch {
            return error
        }
    }

    /// The error `chat` throws.
    static func chatError(_ client: SkillGateClient, _ request: ChatCompletionRequest = hello) async -> (any Error)? {
        do {
            _ = try await client.chat(request)
            return nil
        } catch {
            return error
        }
    }

    @Test func unknownTokenIsUnauthorized() async throws {
        let gateway = try ClientGatewayHarness()
        let client = SkillGateClient(baseURL: gateway.baseURL, token: "sgk_" + String(repeating: "x", count: 43))
        let chat = await Self.chatError(client)
        let agent = await Self.firstError(client.agent(AgentRequest(asking: "hi")))
        await gateway.stop()
        for error in [chat, agent] {
            guard case .unauthorized(let message)? = error as? SkillGateClientError else { Issue.record("got \(String(describing: error))"); continue }
            #expect(!message.isEmpty)
            #expect((error as? SkillGateClientError)?.status == 401)
        }
    }

    @Test func scenarioOutsideTheTokensScopeIsForbidden() async throws {
        let gateway = try ClientGatewayHarness()
        let client = SkillGateClient(baseURL: gateway.baseURL, token: gateway.chatOnlyToken)
        let error = await Self.firstError(client.agent(AgentRequest(asking: "What is 1+1?", scenario: "assistant")))
        await gateway.stop()
        guard case .forbidden(let message)? = error as? SkillGateClientError else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.contains("assistant"), "the server's message names the scenario: \(message)")
    }

    @Test func modelOutsideTheTokensScopeIsForbidden() async throws {
        let gateway = try ClientGatewayHarness()
        let client = SkillGateClient(baseURL: gateway.baseURL, token: gateway.lightOnlyToken)
        let error = await Self.chatError(client, ChatCompletionRequest(model: "strong", messages: [.user("Hello")]))
        await gateway.stop()
        guard case .forbidden(let message)? = error as? SkillGateClientError else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.contains("strong"), "the server's message names the model: \(message)")
    }

    @Test func unknownModelIsABadRequest() async throws {
        let gateway = try ClientGatewayHarness()
        let client = SkillGateClient(baseURL: gateway.baseURL, token: gateway.token)
        let error = await Self.chatError(client, ChatCompletionRequest(model: "nope/nope", messages: [.user("Hello")]))
        await gateway.stop()
        guard case .badRequest(let status, let message)? = error as? SkillGateClientError else { Issue.record("got \(String(describing: error))"); return }
        #expect(status == 404)
        #expect(message.contains("nope/nope"))
    }

    @Test func providerOnAClosedPortIsAnUpstreamError() async throws {
        let gateway = try ClientGatewayHarness()
        let client = SkillGateClient(baseURL: gateway.baseURL, token: gateway.token)
        let chat = await Self.chatError(client, ChatCompletionRequest(model: "down", messages: [.user("Hello")]))
        let stream = await Self.firstError(client.chatStream(ChatCompletionRequest(model: "down", messages: [.user("Hello")])))
        var agentEvents: [AgentEvent] = []
        for try await event in client.agent(AgentRequest(asking: "Hello", model: "down")) { agentEvents.append(event) }
        await gateway.stop()
        for error in [chat, stream] {
            guard case .upstream(let status, let message)? = error as? SkillGateClientError else { Issue.record("got \(String(describing: error))"); continue }
            #expect(status == 502)
            #expect(message.contains("could not connect"))
        }
        // After the run started, the failure is the run's last event, not an error.
        guard case .runFailed(let failed)? = agentEvents.last else { Issue.record("got \(agentEvents)"); return }
        #expect(failed.error.type == "upstream_error")
        #expect(failed.error.message.contains("could not connect"))
    }

    @Test func closedPortIsANetworkError() async throws {
        let client = SkillGateClient(baseURL: URL(string: "http://127.0.0.1:\(try ClosedPort.make())")!, token: "t")
        let chat = await Self.chatError(client)
        let agent = await Self.firstError(client.agent(AgentRequest(asking: "hi")))
        for error in [chat, agent] {
            guard case .network? = error as? SkillGateClientError else { Issue.record("got \(String(describing: error))"); continue }
            #expect(error.map { "\($0)" }?.contains("skillgate serve") == true)
        }
    }

    @Test func tooManyRequestsCarriesRetryAfter() async throws {
        let stub = try StubServer(status: 429, headers: ["Content-Type": "application/json", "Retry-After": "7"],
                                  body: #"{"error":{"message":"slow down","type":"rate_limit_error","param":null,"code":"rate_limited"}}"#)
        let client = SkillGateClient(baseURL: stub.baseURL, token: "t")
        let chat = await Self.chatError(client)
        let agent = await Self.firstError(client.agent(AgentRequest(asking: "hi")))
        await stub.stop()
        for error in [chat, agent] {
            guard case .rateLimited(let retryAfter, let message)? = error as? SkillGateClientError else {
                Issue.record("got \(String(describing: error))"); continue
            }
            #expect(retryAfter == .seconds(7))
            #expect(message == "slow down")
        }
    }

    @Test(arguments: [
        (200, "text/plain", "hello", "expected an event stream"),
        (200, "text/event-stream", "event: run.started\ndata: {oops\n\n", "run.started"),
        (200, "text/event-stream", "event: run.started\ndata: {\"run_id\":\"r\",\"scenario\":\"s\",\"model\":\"m\"}\n\n", "ended before run.completed"),
        (502, "text/html", "<html>Bad Gateway</html>", ""),
    ])
    func answersThatAreNotSkillGatesAreMalformed(_ status: Int, _ type: String, _ body: String, _ detail: String) async throws {
        let stub = try StubServer(status: status, headers: ["Content-Type": type], body: body)
        let error = await Self.firstError(SkillGateClient(baseURL: stub.baseURL, token: "t").agent(AgentRequest(asking: "hi")))
        await stub.stop()
        switch error as? SkillGateClientError {
        case .malformedResponse(let message)?:
            #expect(message.contains(detail))
        case .upstream(502, let message)? where status == 502:
            #expect(message == "<html>Bad Gateway</html>", "an error page that is not JSON is quoted")
        default:
            Issue.record("got \(String(describing: error))")
        }
    }

    @Test func anErrorInsideAChatStreamEndsItWithTheMatchingError() async throws {
        let chunk = #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Once"},"finish_reason":null}]}"#
        let failure = #"{"error":{"message":"demo: the connection broke","type":"upstream_error","param":null,"code":"upstream_unavailable","upstream_status":503}}"#
        let stub = try StubServer(status: 200, headers: ["Content-Type": "text/event-stream"], body: "data: \(chunk)\n\ndata: \(failure)\n\n")
        var texts: [String] = []
        var caught: (any Error)?
        do {
            for try await piece in SkillGateClient(baseURL: stub.baseURL, token: "t").chatStream(Self.hello) { texts.append(piece.text ?? "") }
        } catch {
            caught = error
        }
        await stub.stop()
        #expect(texts == ["Once"])
        guard case .upstream(let status, let message)? = caught as? SkillGateClientError else { Issue.record("got \(String(describing: caught))"); return }
        #expect(status == 503)
        #expect(message == "demo: the connection broke")
    }

    @Test func chatAnswerThatIsNotAChatCompletionIsMalformed() async throws {
        let stub = try StubServer(status: 200, headers: ["Content-Type": "application/json"], body: #"{"hello":"world"}"#)
        let error = await Self.chatError(SkillGateClient(baseURL: stub.baseURL, token: "t"))
        await stub.stop()
        guard case .malformedResponse(let message)? = error as? SkillGateClientError else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.contains("not a chat.completion"))
    }
}
