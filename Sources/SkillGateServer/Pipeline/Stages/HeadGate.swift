import Dispatch
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
///
/// Runs on the event loop, which must never wait on the state database (a PostgreSQL round trip, or SQLite behind the
/// ledger writer's batch): a token the cache holds is decided there; any other is looked up off the loop and the
/// request waits for it (`HTTPHeadDecision.decideLater`) while the loop serves its other connections. So a client that
/// was idle past the cache's lifetime, or one presenting made-up tokens, delays no one with a cached token. Tokens known
/// to the store (accepted before in this process, active when the gateway started, or created by it) are looked up on a
/// queue of their own, so a flood of made-up tokens does not queue ahead of a client back after a pause or a restart
/// either (decisions 0077, 0079).
struct HeadGate: Sendable {
    /// The most body bytes a request to an endpoint without authentication may send.
    static let unauthenticatedBodyBytes = 16 * 1024

    let authentication: AuthenticateStage
    let log: RequestLog
    /// Where the store lookups of known tokens (`CachedTokenGrant.notCached(known:)`) run, one at a time (the store
    /// has one connection). A serial queue of its own targets Dispatch's overcommitting pool, so blocking work
    /// elsewhere cannot starve it.
    let knownLookups = DispatchQueue(label: "skillgate.head-gate.known-token-lookups")
    /// Where the lookups of tokens never seen run (created elsewhere since the start, and made-up ones), one at a time.
    let unknownLookups = DispatchQueue(label: "skillgate.head-gate.unknown-token-lookups")

    func decide(_ head: HTTPRequestHead) -> HTTPHeadDecision {
        let endpoint: Endpoint
        switch Endpoint.accept(method: head.method, path: head.path) {
        case .success(let accepted) where accepted.needsToken:
            endpoint = accepted
        case .success, .failure:
            return .acceptWithBodyLimit(Self.unauthenticatedBodyBytes)
        }
        let tokenKnown: Bool
        do {
            switch try authentication.cachedGrant(head.headers) {
            case .granted(let grant): return .admit(AdmittedCaller(grant: grant, endpoint: endpoint))
            case .notCached(let known): tokenKnown = known
            case .refused: return refuse(AuthenticateStage.invalidToken, head)
            }
        } catch {
            return refuse(error, head)
        }
        let queue = tokenKnown ? knownLookups : unknownLookups
        return .decideLater(HTTPDeferredHeadDecision { [self] decided in
            queue.async { decided(decideReadingTheStore(head, endpoint)) }
        })
    }

    /// The decision for a token the cache did not hold: the store is read (off the event loop).
    func decideReadingTheStore(_ head: HTTPRequestHead, _ endpoint: Endpoint) -> HTTPHeadDecision {
        do {
            return .admit(AdmittedCaller(grant: try authentication.grant(head.headers), endpoint: endpoint))
        } catch {
            return refuse(error, head)
        }
    }

    private func refuse(_ error: GatewayError, _ head: HTTPRequestHead) -> HTTPHeadDecision {
        var entry = RequestLogEntry(requestId: RequestIdGenerator.next(), method: head.method, target: head.path)
        let surface = Endpoint.errorSurface(for: head.path, headers: head.headers)
        entry.status = error.status
        entry.surface = surface.name
        entry.error = error.clientMessage
        log.write(entry)
        var headers: HTTPHeaders = ["content-type": "application/json", "x-request-id": entry.requestId]
        if let retry = error.retryAfter { headers.set("retry-after", String(Int(retry.rounded(.up)))) }
        return .reject(status: error.status, headers: headers, body: surface.errorBody(error))
    }
}
