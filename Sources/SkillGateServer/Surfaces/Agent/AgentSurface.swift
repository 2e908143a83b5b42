import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// `POST /v1/agent`: SkillGate's own agent surface. The body is an OpenAI chat request (`model`
/// optional, default `auto`; `scenario` optional, else the `x-skillgate-scenario` header); the
/// answer is an SSE stream of `AgentEvent`s (docs/agent-api.md, docs/decisions/0012-agent-loop.md).
/// Errors before the stream starts are OpenAI-shaped JSON errors; later ones end the stream with
/// `run.failed`. One log line per run, with `agent_iterations` and `skills_run`.
struct AgentSurface: Surface {
    var name: String { "agent" }

    func errorBody(_ error: GatewayError) -> [UInt8] { error.openAIBody().serializedBytes() }

    /// Parses the body once (an object that names a key twice is refused, as on every surface:
    /// decision 0093): reads `scenario`, defaults `model` to `auto`, and decodes the rest as an
    /// OpenAI chat request (`stream` is the surface's own business: always streamed).
    func decode(_ body: [UInt8]) throws -> SurfaceRequest {
        let parsed: JSONValue
        do { parsed = try JSONValue.parse(body, duplicateKeys: .refused) } catch {
            // Where the JSON broke, as the other surfaces say it.
            throw GatewayError.invalidRequest("the request body is not valid JSON (\(error)); send a JSON object like {\"messages\":[{\"role\":\"user\",\"content\":\"...\"}]}")
        }
        guard case .object(var o) = parsed else {
            throw GatewayError.invalidRequest("the request body must be a JSON object like {\"messages\":[{\"role\":\"user\",\"content\":\"...\"}]}")
        }
        var scenario: String?
        if let s = o["scenario"], !s.isNull {
            guard let name = s.stringValue else { throw GatewayError.invalidRequest("`scenario` must be a string (a scenario name from the config)", param: "scenario") }
            scenario = name
        }
        if o["model"] == nil || o["model"]?.isNull == true { o["model"] = "auto" }
        o["stream"] = false
        let inbound = try OpenAIChatFormat.decodeInboundRequest(json: .object(o))
        var request = SurfaceRequest(chat: inbound.request, stream: true, includeUsage: true, scenario: scenario)
        request.cacheable = false  // a run may use skills, which have side effects: never answered from the cache
        return request
    }

    /// Runs the agent loop to its end here: its events are the gateway's own, not a relayed upstream stream.
    func respond(to call: PreparedCall, _ request: SurfaceRequest, with answer: Answering, _ ctx: inout RequestContext) async throws -> StreamRelay? {
        let responder = ctx.responder
        try await responder.startStream(status: 200, headers: SSEResponse.headers(ctx))
        ctx.log.status = 200
        let record = AgentRunRecord(paidCalls: answer.accounting.paidCallRows(for: ctx.log))
        let emit: AgentEventSink = { event in try await responder.write(event.sseBytes) }
        do {
            try await emit(.runStarted(runId: "run_" + ctx.idSuffix, scenario: call.scenario.name, model: call.request.model))
            let outcome = try await answer.agent.run(call, requestId: ctx.requestId, streamText: true, record: record, emit: emit)
            record.apply(to: &ctx.log, outcome: outcome)
            try await emit(.runCompleted(finishReason: outcome.finishReason, iterations: outcome.iterations, usage: outcome.response.usage,
                                         costUSD: outcome.costUSD, message: outcome.message))
            responder.end()
        } catch {
            record.apply(to: &ctx.log, outcome: nil)
            await SSEResponse.fail(error, errorEvent: { AgentEvent.runFailed($0).sseBytes }, &ctx)
        }
        answer.account(&ctx)
        return nil
    }
}
