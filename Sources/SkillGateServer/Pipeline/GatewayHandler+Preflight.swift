import SkillGateCore
import SkillGateHTTP

extension GatewayHandler {
    /// Whether `request` is a CORS preflight this gateway answers: `OPTIONS` with `Access-Control-Request-Method`, to
    /// the client API, with `cors` configured. Preflights carry no token (browsers never send one), so they are answered
    /// before authentication.
    func isPreflight(_ request: HTTPServerRequest) -> Bool {
        crossOrigin != nil && request.method == "OPTIONS" && CrossOriginPolicy.covers(request.path)
            && request.headers["access-control-request-method"] != nil
    }

    /// Answers a preflight: 204 with the methods, the request fields and how long to keep the answer (the server adds
    /// the origin's fields, `CrossOriginPolicy.replyFields`), or 403 in the surface's error shape for a page whose origin
    /// `cors.allowed_origins` does not list.
    func answerPreflight(_ request: HTTPServerRequest, _ ctx: inout RequestContext) {
        guard let policy = crossOrigin else { return }
        guard let origin = request.headers["origin"], policy.allows(origin) else {
            let shown = request.headers["origin"].map { "the origin \"\($0.prefix(200))\"" } ?? "a request without an Origin field"
            let error = GatewayError(domain: .policy, kind: .permission, status: 403,
                                     message: "CORS preflight refused: \(shown) is not allowed to call this gateway from a browser; the operator can add it to `cors.allowed_origins` in the gateway's config")
            fail(error, Endpoint.errorSurface(for: request.path), &ctx)
            return
        }
        var headers = policy.preflightFields(requestedFields: request.headers["access-control-request-headers"])
        headers.set("x-request-id", ctx.requestId)
        ctx.responder.respond(status: 204, headers: headers, body: [])
        ctx.log.status = 204
        answering.account(&ctx)
    }
}
