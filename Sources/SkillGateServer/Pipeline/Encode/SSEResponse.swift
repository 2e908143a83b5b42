import SkillGateCore
import SkillGateHTTP
import SkillGateRouting

/// The one place an event stream response starts and ends: its headers, and what a failure after
/// the first byte does (an error event in the surface's shape, or status 499 when the client is
/// gone).
enum SSEResponse {
    /// The headers of an event stream: the gateway's own (`x-request-id`, route, skills) plus
    /// `text/event-stream`, no caching and no proxy buffering.
    static func headers(_ ctx: RequestContext) -> HTTPHeaders {
        streamHeaders(ResponseHeaders.common(ctx, contentType: "text/event-stream"))
    }

    /// `headers(ctx)` as they will be when `target` answers the stream, made by the event loop while the upstream works
    /// (`HTTPResponder.prepareStreamHead`, decision 0087). Captures what it reads, not the context.
    static func prepareHeaders(_ ctx: RequestContext, answeredBy target: RouteTarget) {
        let requestId = ctx.requestId, route = ctx.log.route, skills = ctx.log.skills, cache = ctx.log.cache
        let provider = target.provider.id, model = target.qualifiedName
        ctx.responder.prepareStreamHead {
            streamHeaders(ResponseHeaders.common(requestId: requestId, provider: provider, model: model, route: route, skills: skills,
                                                 cache: cache, contentType: "text/event-stream"))
        }
    }

    private static func streamHeaders(_ common: HTTPHeaders) -> HTTPHeaders {
        var headers = common
        headers.add("cache-control", "no-cache")
        headers.add("x-accel-buffering", "no")
        return headers
    }

    /// Ends a stream that failed after it started: writes `errorEvent` when the client is still
    /// there and the request was not cancelled, else records 499. Ends the response. Out of line: inlined, it
    /// took 1.2 KB of the relay's async frame, which a held stream keeps for its whole life (decision 0033).
    @inline(never)
    static func fail(_ error: any Error, errorEvent: (GatewayError) -> [UInt8], _ ctx: inout RequestContext) async {
        // Stopped from outside (cut off at shutdown, its token revoked; decisions 0137, 0141): cancelled, but its client
        // is still there to read why.
        let stopped = ctx.responder.stopError
        let e = stopped ?? GatewayError.from(error)
        ctx.log.error = e.clientMessage
        ctx.log.errorKind = e.kind
        if !ctx.responder.isClientGone, stopped != nil || (e.kind != .cancelled && !Task.isCancelled) {
            try? await ctx.responder.write(errorEvent(e))
        } else {
            ctx.log.status = 499
        }
        ctx.responder.end()
    }
}

/// Headers every gateway response carries.
enum ResponseHeaders {
    /// `content-type`, `x-request-id`, and what was decided: `x-skillgate-provider`, `-model`,
    /// `-route`, `-skills`, and what the response cache did (`x-skillgate-cache`, with `age` on a hit; decision 0140).
    static func common(_ ctx: RequestContext, contentType: String = "application/json") -> HTTPHeaders {
        common(requestId: ctx.requestId, provider: ctx.log.provider, model: ctx.log.model, route: ctx.log.route, skills: ctx.log.skills,
               cache: ctx.log.cache, age: ctx.log.cacheAgeSeconds, contentType: contentType)
    }

    /// `common(ctx)` from the values it reads.
    static func common(requestId: String, provider: String?, model: String?, route: String?, skills: SkillDecision?,
                       cache: ResponseCacheOutcome? = nil, age: Int? = nil, contentType: String) -> HTTPHeaders {
        var h = HTTPHeaders()
        h.reserveCapacity(8)
        h.add("content-type", contentType)
        h.add("x-request-id", requestId)
        if let provider { h.add("x-skillgate-provider", provider) }
        if let model { h.add("x-skillgate-model", model) }
        if let route { h.add("x-skillgate-route", route) }
        if let s = skills?.header { h.add("x-skillgate-skills", s) }
        if let cache { h.add("x-skillgate-cache", cache.rawValue) }
        if let age { h.add("age", String(age)) }
        return h
    }
}
