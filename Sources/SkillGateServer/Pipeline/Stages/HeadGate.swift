import SkillGateCore
import SkillGateHTTP

/// Accept and authenticate, run early: on the request head, before the server reads any body byte
/// (`HTTPServer.Configuration.headGate`). A request to an endpoint that needs a token and presents none,
/// or an unknown or revoked one, is answered 401 in its surface's error shape and its connection closed
/// without reading the body, so a client without a token cannot make the gateway buffer megabytes.
/// Endpoints without authentication (health, readiness, 404s, 405s) may send only a small body.
///
/// The check is the pipeline's own (`AuthenticateStage`, the same token service and cache). The grant and the endpoint
/// go on with the request (`AdmittedCaller`), so the handler does not map the path again. When the request runs, the
/// pipeline looks its token up again by digest (a cache hit), so a revocation or a changed record since the head is
/// seen, without hashing the token a second time.
/// Runs on the event loop: a cache miss reads SQLite there, as the pipeline does.
struct HeadGate: Sendable {
    /// The most body bytes a request to an endpoint without authentication may send.
    static let unauthenticatedBodyBytes = 16 * 1024

    let authentication: AuthenticateStage
    let log: RequestLog

    func decide(_ head: HTTPRequestHead) -> HTTPHeadDecision {
        let endpoint: Endpoint
        switch Endpoint.accept(method: head.method, path: head.path) {
        case .success(let accepted) where accepted.needsToken:
            endpoint = accepted
        case .success, .failure:
            return .acceptWithBodyLimit(Self.unauthenticatedBodyBytes)
        }
        do {
            return .admit(AdmittedCaller(grant: try authentication.grant(head.headers), endpoint: endpoint))
        } catch {
            return refuse(error, head)
        }
    }

    private func refuse(_ error: GatewayError, _ head: HTTPRequestHead) -> HTTPHeadDecision {
        var entry = RequestLogEntry(requestId: RequestIdGenerator.next(), method: head.method, path: head.path)
        let surface = Endpoint.errorSurface(for: head.path)
        entry.status = error.status
        entry.surface = surface.name
        entry.error = error.clientMessage
        log.write(entry)
        var headers: HTTPHeaders = ["content-type": "application/json", "x-request-id": entry.requestId]
        if let retry = error.retryAfter { headers.set("retry-after", String(Int(retry.rounded(.up)))) }
        return .reject(status: error.status, headers: headers, body: surface.errorBody(error))
    }
}
