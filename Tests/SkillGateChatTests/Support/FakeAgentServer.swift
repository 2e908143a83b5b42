import Foundation
import SkillGateCore
import SkillGateHTTP
import Synchronization

/// A stand-in for the gateway's `POST /v1/agent` on 127.0.0.1 (ephemeral port), emitting the event
/// format of the agent-events contract. A question containing "slow" streams words every 100 ms
/// for up to 30 s (for Ctrl-C tests), one containing "pause" sends "Wait", pauses 600 ms and ends with
/// " done." (for keys typed during an answer); any other question runs `current_time` and answers at once.
final class FakeAgentServer: Sendable {
    static let token = "sg-test-token"

    private let server: HTTPServer
    private let handler: Handler

    init() throws {
        handler = Handler()
        server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loops: 1), handler: handler)
        try server.start()
    }

    var url: String { "http://127.0.0.1:\(server.boundPort)" }
    /// Every request body received, in order.
    var requests: [JSONValue] { handler.state.locked { $0.requests } }
    /// Slow answers whose client went away before they finished.
    var disconnects: Int { handler.state.locked { $0.disconnects } }

    func stop() async { await server.shutdown(deadline: .seconds(1)) }

    /// Polls `condition` until it holds or `timeout` passes. The default is long: it only bounds a failing
    /// test, and the request under test may wait seconds for a cooperative-pool thread in a parallel run.
    func wait(timeout: Duration = .seconds(60), until condition: @Sendable () -> Bool) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    final class Handler: HTTPHandler {
        struct State { var requests: [JSONValue] = []; var disconnects = 0 }
        let state = Mutex(State())

        func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
            guard request.path == "/v1/agent", request.method == "POST" else {
                return reply(responder, 404, "no route \(request.method) \(request.path)", "not_found_error")
            }
            guard request.headers["Authorization"] == "Bearer \(FakeAgentServer.token)" else {
                return reply(responder, 401, "invalid token", "authentication_error")
            }
            guard let body = try? JSONValue.parse(request.body) else {
                return reply(responder, 400, "the body is not JSON", "invalid_request_error")
            }
            state.locked { $0.requests.append(body) }
            let question = body["messages"]?.arrayValue?.last?["content"]?.stringValue ?? ""
            do {
                try await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
                try await send(responder, "run.started", ["run_id": "run_1", "scenario": "chat", "model": "auto"])
                try await send(responder, "route.selected", ["provider": "demo", "model": "demo/demo-light", "route": "tier=light", "iteration": 1])
                if question.contains("pause") {
                    try await send(responder, "text.delta", ["text": "Wait"])
                    try await Task.sleep(for: .milliseconds(600))
                    try await send(responder, "text.delta", ["text": " done."])
                    try await send(responder, "run.completed", ["finish_reason": "stop", "iterations": 1,
                                                                "usage": ["input_tokens": 1, "output_tokens": 2], "cost_usd": 0])
                } else if question.contains("slow") {
                    try await send(responder, "text.delta", ["text": "Once"])
                    for _ in 0..<300 {
                        try await Task.sleep(for: .milliseconds(100))
                        try await send(responder, "text.delta", ["text": " upon"])
                    }
                    try await send(responder, "run.completed", ["finish_reason": "stop", "iterations": 1,
                                                                "usage": ["input_tokens": 1, "output_tokens": 300], "cost_usd": 0])
                } else {
                    try await send(responder, "skill.started", ["call_id": "call_1", "skill": "current_time", "arguments": ["timezone": "UTC"], "iteration": 1])
                    try await send(responder, "skill.finished", ["call_id": "call_1", "skill": "current_time", "ok": true, "duration_ms": 3, "summary": "2026-11-30 07:55 UTC"])
                    try await send(responder, "text.delta", ["text": "The time is "])
                    try await send(responder, "text.delta", ["text": "07:55 UTC."])
                    try await send(responder, "run.completed", ["finish_reason": "stop", "iterations": 2,
                                                                "usage": ["input_tokens": 12, "output_tokens": 5], "cost_usd": 0])
                }
                responder.end()
            } catch {
                state.locked { $0.disconnects += 1 }
            }
        }

        private func send(_ responder: HTTPResponder, _ name: String, _ data: JSONValue) async throws {
            try await responder.write(SSEEncoder.encodeJSON(data, event: name))
        }

        private func reply(_ responder: HTTPResponder, _ status: Int, _ message: String, _ type: String) {
            let body: JSONValue = ["error": ["message": .string(message), "type": .string(type)]]
            responder.respond(status: status, headers: ["Content-Type": "application/json"], body: body.serializedBytes())
        }
    }
}
