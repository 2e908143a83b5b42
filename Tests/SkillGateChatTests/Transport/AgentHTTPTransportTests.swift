import SkillGateChat
import SkillGateCore
import Testing

@Suite("AgentHTTPTransport against a fake /v1/agent")
struct AgentHTTPTransportTests {
    @Test func streamsTheEventsOfARun() async throws {
        let server = try FakeAgentServer()
        let transport = AgentHTTPTransport(baseURL: server.url + "/", token: FakeAgentServer.token)
        var names: [AgentEvent] = []
        for try await event in try await transport.start(["messages": [["role": "user", "content": "time?"]]]) {
            names.append(event)
        }
        #expect(names.first == .runStarted(runID: "run_1", scenario: "chat", model: "auto"))
        #expect(names.contains(.skillStarted(callID: "call_1", skill: "current_time", arguments: ["timezone": "UTC"])))
        #expect(names.last == .runCompleted(finishReason: "stop", iterations: 2, usage: AgentUsage(inputTokens: 12, outputTokens: 5), costUSD: 0))
        #expect(server.requests.count == 1)
        await server.stop()
    }

    @Test func badTokenIsRefusedWithAHowTo() async throws {
        let server = try FakeAgentServer()
        let transport = AgentHTTPTransport(baseURL: server.url, token: "wrong")
        let error = await #expect(throws: AgentRequestError.self) {
            _ = try await transport.start(["messages": []])
        }
        #expect(error?.status == 401)
        #expect(error?.message.hasPrefix("HTTP 401: invalid token; check --token") == true)
        #expect(error?.message.contains("skillgate tokens create --name me") == true)
        await server.stop()
    }

    @Test func unreachableServerSaysHowToStartIt() async throws {
        let transport = AgentHTTPTransport(baseURL: "http://127.0.0.1:1", token: "t")
        let error = await #expect(throws: AgentRequestError.self) {
            _ = try await transport.start(["messages": []])
        }
        #expect(error?.status == nil)
        #expect(error?.message.contains("skillgate serve") == true)
    }

    @Test func cancellingTheReaderClosesTheConnection() async throws {
        let server = try FakeAgentServer()
        let transport = AgentHTTPTransport(baseURL: server.url, token: FakeAgentServer.token)
        let reader = Task {
            var text = ""
            for try await event in try await transport.start(["messages": [["role": "user", "content": "slow"]]]) {
                if case .textDelta(let t) = event { text += t }
            }
            return text
        }
        #expect(await server.wait { server.requests.count == 1 })
        try await Task.sleep(for: .milliseconds(250))
        reader.cancel()
        _ = try? await reader.value
        #expect(await server.wait { server.disconnects == 1 }, "the server did not see the connection close")
        await server.stop()
    }
}
