import SkillGateCore
import SkillGateHTTP

/// The one place an event stream response starts and ends: its headers, and what a failure after
/// the first byte does (an error event in the surface's shape, or status 499 when the client is
/// gone).
enum SSEResponse {
    /// The headers of an event stream: the gateway's own (`x-request-id`, route, skills) plus
    /// `text/event-stream`, no caching and no proxy buffering.
    static func headers(_ ctx: RequestContext) -> HTTPHeaders {
        var headers = ResponseHeaders.common(ctx, contentType: "text/event-stream")
        headers.add("cache-control", "no-cache")
        headers.add("x-accel-buffering", "no")
        return headers
    }

    /// Ends a stream that failed after it started: writes `errorEvent` when the client is still
    /// there and the request was not cancelled, else records 499. Ends the response. Out of line: inlined, it
    /// took 1.2 KB of the relay's async frame, which a held stream keeps for its whole life (decision 0033).
    @inline(never)
    static func fail(_ error: any Error, errorEvent: (GatewayError) -> [UInt8], _ ctx: inout RequestContext) async {
        let e = GatewayError.from(error)
        ctx.log.error = e.clientMessage
        ctx.log.errorKind = e.kind
        if !ctx.responder.isClientGone, e.kind != .cancelled, !Task.isCancelled {
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
    /// `-route`, `-skills`.
    static func common(_ ctx: RequestContext, contentType: String = "application/json") -> HTTPHeaders {
        var h = HTTPHeaders()
        h.reserveCapacity(8)
        h.add("content-type", contentType)
        h.add("x-request-id", ctx.requestId)
        if let p = ctx.log.provider { h.add("x-skillgate-provider", p) }
        if let m = ctx.log.model { h.add("x-skillgate-model", m) }
        if let r = ctx.log.route { h.add("x-skillgate-route", r) }
        if let s = ctx.log.skills?.header { h.add("x-skillgate-skills", s) }
        return h
    }
}
