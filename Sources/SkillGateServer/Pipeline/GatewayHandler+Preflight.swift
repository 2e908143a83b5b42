import SkillGateCore
import SkillGateHTTP

extension GatewayHandler {
    /// Answers a preflight (`CrossOriginPolicy.isPreflight`; browsers send no token with one, so it is answered before
    /// authentication): 204 with the methods, the request fields and how long to keep the answer (the server adds
    /// the origin's fields, `CrossOriginPolicy.replyFields`), or 403 in the surface's error shape for a page whose origin
    /// `cors.allowed_origins` does not list.
    func answerPreflight(_ request: HTTPServerRequest, _ policy: CrossOriginPolicy, _ ctx: inout RequestContext) {
        guard let origin = request.headers["origin"], policy.allows(origin) else {
            let shown = request.headers["origin"].map { "the origin \"\($0.prefix(200))\"" } ?? "a request without an Origin field"
            let error = GatewayError(domain: .policy, kind: .permission, status: 403,
                                     message: "CORS preflight refused: \(shown) is not allowed to call this gateway from a browser; the operator can add it to `cors.allowed_origins` in the gateway's config")
            fail(error, Endpoint.errorSurface(for: request.path, headers: request.headers), &ctx)
            return
        }
        var headers = policy.preflightFields(requestedFields: request.headers["access-control-request-headers"])
        headers.set("x-request-id", ctx.requestId)
        ctx.responder.respond(status: 204, headers: headers, body: [])
        ctx.log.status = 204
        answering.account(&ctx)
    }
}
