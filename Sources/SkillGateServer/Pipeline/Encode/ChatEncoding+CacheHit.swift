import SkillGateCore

/// A request the response cache answers (decision 0140).
extension ChatEncoding {
    /// Answers with `hit`, a complete answer the cache kept: whole, or replayed as a stream in one write, in this
    /// request's surface and with its own id and `created`, as any answer is. No model is called: the log line has no
    /// usage, cost or attempts, so the hit costs nothing against budgets and token limits (it was admitted as a
    /// request, which request-rate limits count). Tool calls in it are remembered for stickiness as a fresh answer's.
    @inline(never)
    func answerFromCache(_ hit: CachedAnswer, _ request: SurfaceRequest, _ ctx: inout RequestContext) async {
        let calls = hit.response.toolCalls
        if !calls.isEmpty { answer.execute.executor.affinity.remember(calls.map(\.id), deployment: hit.target.qualifiedName) }
        let model = hit.target.qualifiedName
        guard request.stream else {
            let body = surface.responseBody(hit.response, id: surface.idPrefix + ctx.idSuffix, model: model, created: Self.now)
            ctx.responder.respond(status: 200, headers: ResponseHeaders.common(ctx), body: body)
            ctx.log.status = 200
            return answer.account(&ctx)
        }
        var encoder = surface.streamEncoder(id: "chatcmpl-" + ctx.idSuffix, model: model, created: Self.now, includeUsage: request.includeUsage)
        do {
            try await ctx.responder.startStream(status: 200, headers: SSEResponse.headers(ctx))
            ctx.log.status = 200
            var bytes: [UInt8] = []
            for event in hit.events(id: surface.idPrefix + ctx.idSuffix, model: model) { bytes += encoder.encode(event) }
            bytes += encoder.finish()
            try await ctx.responder.write(bytes)
            ctx.responder.end()
        } catch {
            let failing = encoder
            await SSEResponse.fail(error, errorEvent: { failing.failure($0) ?? surface.streamErrorEvent($0) }, &ctx)
        }
        answer.account(&ctx)
    }
}
