import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateHTTP

/// The encode stage of the chat surfaces (OpenAI, Anthropic): a whole answer, a relayed stream, or
/// — when the visible tools include server-side skills — the agent loop's final answer in the
/// surface's own shape.
struct ChatEncoding<S: ChatSurface> {
    let surface: S
    let answer: Answering

    /// Answers `call`; a streamed answer is opened and returned as the relay still to run (`StreamRelay`).
    func respond(to call: PreparedCall, _ request: SurfaceRequest, _ ctx: inout RequestContext) async throws -> StreamRelay? {
        if !call.skills.serverSkills.isEmpty {
            try await agentChat(call, request, &ctx)
            return nil
        }
        // An exact repeat of an answer the response cache kept is answered from it, with no model call (decision 0140);
        // one that coalesces may wait for an identical request's answer under way first (decision 0172).
        var lease: ResponseCacheFillLease?
        switch answer.responseCache.lookUp(call, &ctx.log) {
        case .hit(let hit):
            await answerFromCache(hit, request, &ctx)
            return nil
        case .miss(let leads):
            lease = leads
        case .wait(let fill, let bound):
            let started = ContinuousClock.now
            await fill.wait(upTo: bound)
            if let hit = answer.responseCache.afterWaiting(ContinuousClock.now - started, call, &ctx.log) {
                await answerFromCache(hit, request, &ctx)
                return nil
            }
        }
        // The fill this request leads ends when it returns (a whole answer, kept before; a failure) or, for a stream,
        // when its relay, which holds the lease too, ends.
        defer { withExtendedLifetime(lease) {} }
        // A stream's head is written by the event loop while the upstream works, as it will be if the plan's first
        // deployment answers (decision 0087); it is used only if that one did, with no escalation.
        let headFor = request.stream ? call.plan.targets.first : nil
        if let headFor { SSEResponse.prepareHeaders(ctx, answeredBy: headFor) }
        switch try await answer.execute.run(call, stream: request.stream, &ctx) {
        case .answered(let response, let target):
            let id = response.id.isEmpty ? surface.idPrefix + ctx.idSuffix : response.id
            let body = surface.responseBody(response, id: id, model: target.qualifiedName, created: Self.now)
            ctx.responder.respond(status: 200, headers: ResponseHeaders.common(ctx), body: body)
            ctx.log.status = 200
            // Kept before the reply is released (by the account stage), so a client's next request finds it.
            answer.responseCache.keep(response, from: target, for: call)
            answer.account(&ctx)
            return nil
        case .streaming(let upstream):
            // Only what the relay needs is kept for the stream's life: not the request or the prepared call.
            var relay = OpenRelay(upstream: upstream, recheck: call.client.recheck, headPreparedFor: headFor,
                                  encoder: surface.streamEncoder(id: "chatcmpl-" + ctx.idSuffix, model: upstream.target.qualifiedName,
                                                                 created: Self.now, includeUsage: request.includeUsage),
                                  spend: StreamSpend(inputOf: call.request), cacheWrite: answer.responseCache.write(for: call, lease: lease))
            // The head and the first event go out now, before this setup's state is freed (decision 0063).
            guard await relayFirst(&relay, &ctx) else { return nil }
            // The closure relays through the variable it captured: one relay state for the stream's life, not a copy.
            return StreamRelay { [self] ctx in await relayRest(&relay, &ctx) }
        case .unusable(let u, let target):
            throw GatewayError.upstreamProtocol("the answer of \(target.qualifiedName) was unusable (\(u.detail))", provider: target.provider.id)
        }
    }

    /// The chat surfaces when the visible tools include server-side skills: the agent loop runs
    /// them, and the client sees only what its SDK expects. Non-streaming: the final answer (text or
    /// client tool calls) as one response. Streaming: progress as SSE comments (`: skill
    /// current_time ok 3ms`), which every SSE parser skips, then the final answer's ordinary
    /// chunks, sent once the last model call is complete (the last iteration is not known to be
    /// last until it ends). The stream starts at the first comment, so a failure before any skill
    /// ran is still an ordinary HTTP error.
    private func agentChat(_ call: PreparedCall, _ request: SurfaceRequest, _ ctx: inout RequestContext) async throws {
        let record = AgentRunRecord(paidCalls: answer.accounting.paidCallRows(for: ctx.log))
        let stream = StreamStart(responder: ctx.responder, headers: SSEResponse.headers(ctx))
        let comments = request.stream
        let emit: AgentEventSink = { event in
            guard comments, case .skillFinished(_, let skill, let ok, let ms, _, _) = event else { return }
            try await stream.write(Array((": skill " + skill + (ok ? " ok " : " error ") + String(ms) + "ms\n\n").utf8))
        }
        let outcome: AgentOutcome
        do {
            outcome = try await answer.agent.run(call, requestId: ctx.requestId, streamText: false, record: record, emit: emit)
        } catch {
            record.apply(to: &ctx.log, outcome: nil)
            guard stream.isStarted else { throw error }
            ctx.log.status = 200
            await SSEResponse.fail(error, errorEvent: surface.streamErrorEvent, &ctx)
            return answer.account(&ctx)
        }
        record.apply(to: &ctx.log, outcome: outcome)
        let model = ctx.log.model ?? call.request.model
        guard request.stream else {
            let id = outcome.response.id.isEmpty ? surface.idPrefix + ctx.idSuffix : outcome.response.id
            ctx.responder.respond(status: 200, headers: ResponseHeaders.common(ctx),
                                  body: surface.responseBody(outcome.response, id: id, model: model, created: Self.now))
            ctx.log.status = 200
            return answer.account(&ctx)
        }
        var encoder = surface.streamEncoder(id: "chatcmpl-" + ctx.idSuffix, model: model, created: Self.now, includeUsage: request.includeUsage)
        do {
            try await stream.start()
            ctx.log.status = 200
            for event in outcome.response.streamEvents(fallbackId: "msg_" + ctx.idSuffix, model: model) {
                let bytes = encoder.encode(event)
                if !bytes.isEmpty { try await ctx.responder.write(bytes) }
            }
            try await ctx.responder.write(encoder.finish())
        } catch {
            ctx.log.status = 499
            let e = GatewayError.from(error)
            ctx.log.error = e.clientMessage
            ctx.log.errorKind = e.kind
        }
        ctx.responder.end()
        answer.account(&ctx)
    }

    static var now: Int { Int(Date().timeIntervalSince1970) }
}
