import SkillGateCore
import SkillGateHTTP
import SkillGateSkills

/// The request pipeline, top to bottom:
///
/// 1. **accept** — the endpoint of the request line (`Endpoint.table`), or 404/405;
/// 2. **authenticate** — the SkillGate token (`AuthenticateStage`);
/// 3. **decode** — the surface reads its body into the wire-neutral model (`Surface.decode`);
/// 4. **prepare** — scenario, limits and budgets, skill policy, route plan, escalation, the response cache's key
///    (`PrepareStage`);
/// 5. **execute** — a kept answer when the response cache has one (`ResponseCacheStage`), else attempts, fallbacks,
///    answer checks, escalation (`ExecuteStage`, and `AgentRunner` for server-side skills);
/// 6. **encode** — the surface writes the answer in its own shape (`Surface.respond`);
/// 7. **account** — limits released, metrics, the usage ledger, the log line (`AccountStage`).
///
/// Errors before the answer started are sent in the surface's error shape with their status.
public final class GatewayHandler: HTTPHandler {
    let services: GatewayServices
    let authentication: AuthenticateStage
    let prepare: PrepareStage
    let answering: Answering
    let limits: LimitsStage
    /// The server-side skills (configured and MCP servers' tools) that `/mcp` offers.
    let serverSkills: SkillRegistry
    /// Which web pages may call from a browser (`cors`); nil: none, and `OPTIONS` is answered 405 like any other
    /// method an endpoint does not have.
    let crossOrigin: CrossOriginPolicy?

    /// `serverSkills` replaces the configured skills of `services.serverSkills` (tests pass their own); the MCP
    /// servers' tools still join them unless the replacement has a live set of its own.
    public init(services: GatewayServices, serverSkills: SkillRegistry? = nil) {
        self.services = services
        let registry = serverSkills.map { given in
            given.live == nil && services.mcp != nil ? (try? SkillRegistry(given.all, live: services.mcp)) ?? given : given
        } ?? services.serverSkills
        self.serverSkills = registry
        crossOrigin = services.config.crossOrigin.map(CrossOriginPolicy.init)
        authentication = AuthenticateStage(tokens: services.tokens)
        limits = LimitsStage(counters: services.limitCounters, tokenDefaults: services.config.tokenLimits, scenarios: services.config.scenarios,
                             metrics: services.metrics)
        let responseCache = ResponseCacheStage(cache: services.responseCache, config: services.config)
        prepare = PrepareStage(resolver: services.resolver, skills: services.skills, executor: services.executor, serverSkills: registry, limits: limits,
                               responseCache: responseCache)
        let execute = ExecuteStage(executor: services.executor)
        answering = Answering(execute: execute,
                              agent: AgentRunner(execute: execute, settings: services.config.agent, registry: registry, metrics: services.metrics, limits: limits),
                              accounting: AccountStage(log: services.log, ledger: services.ledger, limits: services.limitCounters, metrics: services.metrics,
                                                       traffic: services.traffic, revocations: services.revocations),
                              responses: services.responses, responseCache: responseCache)
    }

    public func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        // Stamped on the clock of limit windows, so a request's usage rows fall in the windows it was counted in.
        var ctx = RequestContext(method: request.method, path: request.path, responder: responder, time: services.now())
        let admitted = request.admission as? AdmittedCaller
        if admitted == nil, let policy = crossOrigin, CrossOriginPolicy.isPreflight(request) { return answerPreflight(request, policy, &ctx) }
        // The stages look the admitted token up again in the cache; should the head's entry have expired meanwhile (a
        // slow body, a store held past the cache's lifetime), the store is read off this loop first (decision 0086).
        if let admitted, services.tokens.cacheNoLongerVouches(for: admitted.grant) { await services.tokens.recacheIfExpired(admitted.grant) }
        // The head gate mapped the path of every request it admitted.
        let accepted = admitted.map { .success($0.endpoint) } ?? Endpoint.accept(method: request.method, path: request.path)
        switch accepted {
        case .failure(let rejection):
            fail(rejection.error, Endpoint.errorSurface(for: request.path, headers: request.headers), &ctx, extraHeaders: rejection.allowed.map { ["allow": $0] } ?? [:])
        case .success(.health):
            respondJSON(200, ["status": "ok"], &ctx)
        case .success(.ready):
            await ready(&ctx)
        case .success(.models):
            models(request, &ctx)
        case .success(.model):
            model(request, &ctx)
        case .success(.countTokens):
            await countTokens(request, &ctx)
        case .success(.responsesInputTokens):
            await countResponsesInputTokens(request, &ctx)
        case .success(.limits):
            await limitsStatus(request, &ctx)
        case .success(.metrics):
            metrics(&ctx)
        case .success(.surface(let surface)):
            await serve(request, surface, &ctx)
        case .success(.admin):
            await admin(request, &ctx)
        case .success(.console):
            console(request, &ctx)
        case .success(.mcp):
            await serveMCP(request, &ctx)
        case .success(.storedResponse):
            await storedResponse(request, &ctx)
        case .success(.storedResponseInputItems):
            await storedResponseInputItems(request, &ctx)
        }
    }

    /// Stages 2–7 for a surface.
    ///
    /// A streamed request is set up (stages 4–5, up to the upstream's first event) in a child task, and relayed in this
    /// one: a task keeps the allocator slabs of its deepest frames until it ends, and a held stream would keep the
    /// setup's for its whole life (decision 0033).
    private func serve(_ request: HTTPServerRequest, _ surface: any Surface, _ ctx: inout RequestContext) async {
        ctx.log.surface = surface.name
        let client: AuthenticatedClient, decoded: SurfaceRequest
        do {
            (client, decoded) = try authenticateAndDecode(request, surface, &ctx)
        } catch {
            return fail(GatewayError.from(error), surface, &ctx)
        }
        guard decoded.stream else {
            _ = await setUp(decoded, client, request.headers, surface, &ctx)
            return
        }
        let relay = await setUpInChildTask(consume decoded, client, request.headers, surface, &ctx)
        await relay?.run(&ctx)
    }

    /// `setUp` in a child task, which ends when this returns (an `async let`'s task lives to the end of its scope).
    /// Out of line, so the child's result (a copy of the context) is laid out in this function's async frame, which
    /// ends with the setup, not in `serve`'s, which a held stream keeps (decision 0036).
    @inline(never)
    private func setUpInChildTask(_ decoded: SurfaceRequest, _ client: AuthenticatedClient, _ headers: HTTPHeaders,
                                  _ surface: any Surface, _ ctx: inout RequestContext) async -> StreamRelay? {
        async let opened = setUpReturningContext(decoded, client, headers, surface, ctx)
        let (setUpContext, relay) = await opened
        ctx = setUpContext
        return relay
    }

    /// `setUp` on a copy of the context, returned with the relay.
    private func setUpReturningContext(_ decoded: SurfaceRequest, _ client: AuthenticatedClient, _ headers: HTTPHeaders,
                                       _ surface: any Surface, _ ctx: RequestContext) async -> (RequestContext, StreamRelay?) {
        var ctx = ctx
        let relay = await setUp(decoded, client, headers, surface, &ctx)
        return (ctx, relay)
    }

    /// Stages 4–6 (and 7 unless a stream is left to relay): answers, fails, or returns the opened stream's relay. Out of
    /// line: its locals stay off `serve`'s async frame (decision 0036).
    @inline(never)
    private func setUp(_ decoded: SurfaceRequest, _ client: AuthenticatedClient, _ headers: HTTPHeaders,
                       _ surface: any Surface, _ ctx: inout RequestContext) async -> StreamRelay? {
        do {
            // A surface may complete its request from stored state first (the Responses API's previous_response_id).
            let resolved = try await surface.resolve(decoded, for: client, with: answering)
            let call = try await prepare.prepare(resolved, for: client, headers: headers, &ctx)
            return try await surface.respond(to: call, resolved, with: answering, &ctx)
        } catch {
            fail(GatewayError.from(error), surface, &ctx)
            return nil
        }
    }

    /// Stages 2 and 3, out of line so their temporaries stay off `serve`'s async frame (decision 0033).
    @inline(never)
    private func authenticateAndDecode(_ request: HTTPServerRequest, _ surface: any Surface,
                                       _ ctx: inout RequestContext) throws -> (AuthenticatedClient, SurfaceRequest) {
        let client = try authenticatedClient(request, &ctx)
        try client.requireChat()
        let decoded = try surface.decode(request.body, for: client, toolLists: services.toolLists)
        request.releaseBody()   // decoded; a held stream would otherwise keep it (decision 0036)
        ctx.log.stream = decoded.stream
        services.metrics.started(stream: decoded.stream)
        ctx.inFlight = true
        services.revocations.watch(client.recheck.grant, answeredBy: ctx.responder)
        return (client, decoded)
    }

    /// The request's client, its token checked, and named in the request's log line.
    func authenticatedClient(_ request: HTTPServerRequest, _ ctx: inout RequestContext) throws(GatewayError) -> AuthenticatedClient {
        let client = try authentication.authenticate(request)
        ctx.log.tokenName = client.name
        ctx.log.tokenId = client.tokenId
        return client
    }

    /// Sends `error` in `surface`'s shape and accounts for the request.
    @inline(never)
    func fail(_ error: GatewayError, _ surface: any ErrorShape, _ ctx: inout RequestContext, extraHeaders: HTTPHeaders = [:]) {
        // A request stopped from outside (cut off at shutdown, its token revoked) failed for that (decisions 0137, 0141).
        let error = ctx.responder.stopError ?? error
        var headers = ResponseHeaders.common(ctx)
        for f in extraHeaders { headers.set(f.name, f.value) }
        if let retry = error.retryAfter { headers.set("retry-after", String(Int(retry.rounded(.up)))) }
        ctx.responder.respond(status: error.status, headers: headers, body: surface.errorBody(error))
        ctx.log.status = error.status
        ctx.log.error = error.clientMessage
        ctx.log.errorKind = error.kind
        answering.account(&ctx)
    }

    func respondJSON(_ status: Int, _ body: JSONValue, _ ctx: inout RequestContext) {
        ctx.responder.respond(status: status, headers: ResponseHeaders.common(ctx), body: body.serializedBytes())
        ctx.log.status = status
        answering.account(&ctx)
    }
}
