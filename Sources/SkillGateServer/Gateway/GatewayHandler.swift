import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateSkills

/// Routes inbound HTTP requests to the gateway's endpoints.
public final class GatewayHandler: HTTPHandler {
    let services: GatewayServices
    /// The server-side skills (normally `services.serverSkills`; tests pass their own).
    let serverSkills: SkillRegistry

    public init(services: GatewayServices, serverSkills: SkillRegistry? = nil) {
        self.services = services
        self.serverSkills = serverSkills ?? services.serverSkills
    }

    /// The endpoints and the methods they accept.
    static let routes: [String: String] = [
        "/v1/chat/completions": "POST", "/v1/messages": "POST", "/v1/agent": "POST", "/v1/models": "GET", "/healthz": "GET", "/readyz": "GET",
    ]

    public func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        var ctx = RequestContext(method: request.method, path: request.path)
        let surface: ChatSurface = request.path == "/v1/messages" ? .anthropic : .openAI
        guard let method = Self.routes[request.path] else {
            let error = GatewayError(domain: .caller, kind: .notFound, status: 404,
                                     message: "no route \(request.method) \(request.path); SkillGate serves POST /v1/chat/completions, POST /v1/messages, POST /v1/agent, GET /v1/models, GET /healthz and GET /readyz")
            return finish(&ctx, responder, error: error, surface: surface)
        }
        guard request.method == method || (method == "GET" && request.method == "HEAD") else {
            var error = GatewayError(domain: .caller, kind: .invalidRequest, status: 405,
                                     message: "\(request.path) accepts \(method) only, not \(request.method)")
            error.param = "method"
            return finish(&ctx, responder, error: error, surface: surface, extraHeaders: ["allow": method])
        }
        switch request.path {
        case "/healthz":
            respondJSON(&ctx, responder, status: 200, ["status": "ok"])
        case "/readyz":
            await ready(&ctx, responder)
        case "/v1/models":
            models(request, &ctx, responder)
        case "/v1/agent":
            await agent(request, &ctx, responder)
        default:
            await chat(request, surface: surface, &ctx, responder)
        }
    }

    private func ready(_ ctx: inout RequestContext, _ responder: HTTPResponder) async {
        do {
            _ = try services.keys.reloadIfChanged()
            respondJSON(&ctx, responder, status: 200, ["status": "ready", "providers": .int(services.catalog.providers.count)])
        } catch {
            let e = GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503,
                                 message: "the key store is not readable: \(error)")
            finish(&ctx, responder, error: e, surface: .openAI)
        }
    }

    private func models(_ request: HTTPServerRequest, _ ctx: inout RequestContext, _ responder: HTTPResponder) {
        do {
            let client = try services.authenticate(request.headers)
            ctx.log.tokenName = client.name
            let scenario = try services.resolver.scenario(named: request.headers["x-skillgate-scenario"], scope: client.scope)
            let targets = services.resolver.visibleModels(scenario: scenario.config, scope: client.scope)
            var data: [JSONValue] = targets.map { t in
                ["id": .string(t.qualifiedName), "object": "model", "created": 0, "owned_by": .string(t.provider.id)]
            }
            let names = Set(targets.map(\.qualifiedName))
            for (alias, target) in services.config.aliases.sorted(by: { $0.key < $1.key }) where names.contains(target) {
                data.append(["id": .string(alias), "object": "model", "created": 0, "owned_by": "skillgate-alias"])
            }
            respondJSON(&ctx, responder, status: 200, ["object": "list", "data": .array(data)])
        } catch {
            finish(&ctx, responder, error: GatewayHandler.gatewayError(error), surface: .openAI)
        }
    }

    // MARK: responses

    func commonHeaders(_ ctx: RequestContext, contentType: String = "application/json") -> HTTPHeaders {
        var h: HTTPHeaders = ["content-type": contentType, "x-request-id": ctx.requestId]
        if let p = ctx.log.provider { h.add("x-skillgate-provider", p) }
        if let m = ctx.log.model { h.add("x-skillgate-model", m) }
        if let r = ctx.log.route { h.add("x-skillgate-route", r) }
        if let s = ctx.log.skills?.header { h.add("x-skillgate-skills", s) }
        return h
    }

    func respondJSON(_ ctx: inout RequestContext, _ responder: HTTPResponder, status: Int, _ body: JSONValue) {
        responder.respond(status: status, headers: commonHeaders(ctx), body: body.serializedBytes())
        ctx.log.status = status
        complete(&ctx)
    }

    /// Sends `error` in the surface's shape and logs the request.
    func finish(_ ctx: inout RequestContext, _ responder: HTTPResponder, error: GatewayError, surface: ChatSurface, extraHeaders: HTTPHeaders = [:]) {
        var headers = commonHeaders(ctx)
        for f in extraHeaders { headers.set(f.name, f.value) }
        if let retry = error.retryAfter { headers.set("retry-after", String(Int(retry.rounded(.up)))) }
        responder.respond(status: error.status, headers: headers, body: surface.errorBody(error))
        ctx.log.status = error.status
        ctx.log.error = error.clientMessage
        complete(&ctx)
    }

    func complete(_ ctx: inout RequestContext) {
        ctx.log.totalMs = ctx.elapsedMs
        services.log.write(ctx.log)
    }

    /// Any error as a `GatewayError` (unexpected ones become a 500 that says so).
    static func gatewayError(_ error: any Error) -> GatewayError {
        if let e = error as? GatewayError { return e }
        if error is CancellationError || (error as? HTTPServerError)?.kind == .clientGone {
            return GatewayError(domain: .caller, kind: .cancelled, status: 499, message: "the client closed the connection")
        }
        return .internalError("unexpected failure (\(error)); please report it with the x-request-id of this response")
    }
}
