import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

extension GatewayHandler {
    /// `POST /v1/agent`: SkillGate's own agent surface. The body is an OpenAI chat request
    /// (`model` optional, default `auto`; `scenario` optional, else the `x-skillgate-scenario`
    /// header); the answer is an SSE stream of `AgentEvent`s (see docs/decisions/0012-agent-loop.md).
    /// Errors before the stream starts are OpenAI-shaped JSON errors; later ones end the stream
    /// with `run.failed`. One log line per run, with `agent_iterations` and `skills_run`.
    func agent(_ request: HTTPServerRequest, _ ctx: inout RequestContext, _ responder: HTTPResponder) async {
        ctx.log.surface = "agent"
        ctx.log.stream = true
        let record = AgentRunRecord()
        var started = false
        do {
            let client = try services.authenticate(request.headers)
            ctx.log.tokenName = client.name
            let (body, scenarioName) = try Self.agentBody(request.body)
            let inbound = try OpenAIChatFormat.decodeInboundRequest(body)
            let chat = try await prepare(inbound.request, for: client, scenario: scenarioName, headers: request.headers, &ctx)
            let prepared = chat.request
            let scenario = chat.scenario
            let setup = agentSetup(chat.skills, scenario: scenario, scope: client.scope, plan: chat.plan,
                                   tokenName: client.name, requestId: ctx.requestId)

            var headers = commonHeaders(ctx, contentType: "text/event-stream")
            headers.add("cache-control", "no-cache")
            headers.add("x-accel-buffering", "no")
            try await responder.startStream(status: 200, headers: headers)
            started = true
            ctx.log.status = 200
            let emit: AgentEventSink = { event in try await responder.write(event.sseBytes) }
            try await emit(.runStarted(runId: "run_" + ctx.requestId.dropFirst(4), scenario: scenario.name, model: prepared.model))
            let outcome = try await runAgent(prepared, setup, streamText: true, record: record, emit: emit)
            record.apply(to: &ctx.log, outcome: outcome)
            try await emit(.runCompleted(finishReason: outcome.finishReason, iterations: outcome.iterations, usage: outcome.response.usage,
                                         costUSD: outcome.costUSD, message: outcome.message))
            responder.end()
            complete(&ctx)
        } catch {
            let e = Self.gatewayError(error)
            guard started else { return finish(&ctx, responder, error: e, surface: .openAI) }
            record.apply(to: &ctx.log, outcome: nil)
            ctx.log.error = e.clientMessage
            if !responder.isClientGone, e.kind != .cancelled, !Task.isCancelled {
                try? await responder.write(AgentEvent.runFailed(e).sseBytes)
            } else {
                ctx.log.status = 499
            }
            responder.end()
            complete(&ctx)
        }
    }

    /// The body with `model` defaulted to `auto`, and the `scenario` it names.
    static func agentBody(_ bytes: [UInt8]) throws -> (body: [UInt8], scenario: String?) {
        guard case .object(var o)? = try? JSONValue.parse(bytes) else {
            throw GatewayError.invalidRequest("the request body must be a JSON object like {\"messages\":[{\"role\":\"user\",\"content\":\"...\"}]}")
        }
        var scenario: String?
        if let s = o["scenario"], !s.isNull {
            guard let name = s.stringValue else { throw GatewayError.invalidRequest("`scenario` must be a string (a scenario name from the config)", param: "scenario") }
            scenario = name
        }
        if o["model"] == nil || o["model"]?.isNull == true { o["model"] = "auto" }
        o["stream"] = false
        return (JSONValue.object(o).serializedBytes(), scenario)
    }
}
