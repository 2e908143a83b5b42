import Foundation
import SkillGateChat
import SkillGateClient
import Testing

@Suite("SkillGateClient as the chat's transport, against a fake /v1/agent")
struct SkillGateClientTransportTests {
    static func client(_ url: String, token: String = FakeAgentServer.token) -> SkillGateClient {
        SkillGateClient(baseURL: URL(string: url)!, token: token)
    }

    @Test func streamsTheEventsOfARun() async throws {
        let server = try FakeAgentServer()
        var events: [AgentEvent] = []
        for try await event in Self.client(server.url + "/").run(AgentRequest(asking: "time?")) {
            events.append(event)
        }
        #expect(events.first == .runStarted(.init(runId: "run_1", scenario: "chat", model: "auto")))
        #expect(events.contains(.skillStarted(.init(callId: "call_1", skill: "current_time", arguments: ["timezone": "UTC"], iteration: 1))))
        #expect(events.last == .runCompleted(.init(finishReason: "stop", iterations: 2, usage: .init(inputTokens: 12, outputTokens: 5), costUSD: 0)))
        #expect(server.requests.count == 1)
        await server.stop()
    }

    @Test func badTokenIsReportedWithAHowTo() async throws {
        let server = try FakeAgentServer()
        let output = RecordingOutput()
        let loop = ChatLoop(transport: Self.client(server.url, token: "wrong"), input: ScriptedReader([], output: output), output: output)
        let result = await loop.answer("hi")
        guard case .transportError(let message) = result.ending else { Issue.record("expected a transport error"); return }
        #expect(message.hasPrefix("HTTP 401: invalid token; check --token"))
        #expect(message.contains("skillgate tokens create --name me"))
        await server.stop()
    }

    @Test func unreachableServerSaysHowToStartIt() async throws {
        let output = RecordingOutput()
        let loop = ChatLoop(transport: Self.client("http://127.0.0.1:1"), input: ScriptedReader([], output: output), output: output)
        let result = await loop.answer("hi")
        guard case .transportError(let message) = result.ending else { Issue.record("expected a transport error"); return }
        #expect(message.hasPrefix("cannot reach SkillGate"))
        #expect(message.contains("skillgate serve"))
    }

    @Test(arguments: [
        (SkillGateClientError.forbidden(message: "scenario x is not allowed"), 403, "HTTP 403: scenario x is not allowed; check --token"),
        (.badRequest(status: 404, message: "no route"), 404, "HTTP 404: no route; this server has no /v1/agent"),
        (.upstream(status: 502, message: "demo: down"), 502, "HTTP 502: demo: down"),
        (.malformedResponse("not an event stream"), nil, "unreadable answer: not an event stream; is --url pointing at a SkillGate gateway?"),
    ] as [(SkillGateClientError, Int?, String)])
    func clientErrorsAreWordedForTheTerminal(_ error: SkillGateClientError, _ status: Int?, _ prefix: String) {
        let worded = AgentRequestError(error)
        #expect(worded.status == status)
        #expect(worded.message.hasPrefix(prefix))
    }

    @Test func cancellingTheReaderClosesTheConnection() async throws {
        let server = try FakeAgentServer()
        let client = Self.client(server.url)
        let reader = Task {
            var text = ""
            for try await event in client.run(AgentRequest(asking: "slow")) {
                if case .textDelta(let delta) = event { text += delta.text }
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
