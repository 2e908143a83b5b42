import SkillGateCore
import SkillGateHTTP

extension GatewayHandler {
    /// `GET /readyz`: the config is loaded, the key store readable and the state file the one opened at start.
    /// Unauthenticated, so it says only that: `{"status":"ready"}` or 503 `{"status":"not_ready","reason":…}` with
    /// `key store unreadable` or `state database moved` (decision 0099), or `shutting down` once the drain began
    /// (decision 0145). What is wrong (paths, modes) goes to the log, and `skillgate config check` shows it. The key file
    /// is looked at on a queue of its own, never on the event loop (decision 0152): a key file on a mount that stopped
    /// answering holds that check, not every connection of the loop.
    func ready(_ ctx: inout RequestContext) async {
        if services.draining.load(ordering: .relaxed) {
            return respondJSON(503, ["status": "not_ready", "reason": "shutting down"], &ctx)
        }
        let keys = services.keys
        do {
            _ = try await services.readinessChecks.run { try keys.reloadIfChanged() }
        } catch {
            ctx.log.error = "not ready: the key store is not readable: \(error)"
            return respondJSON(503, ["status": "not_ready", "reason": "key store unreadable"], &ctx)
        }
        if let problem = services.stateFile.problem {
            ctx.log.error = "not ready: \(problem)"
            return respondJSON(503, ["status": "not_ready", "reason": "state database moved"], &ctx)
        }
        respondJSON(200, ["status": "ready"], &ctx)
    }

    /// `GET /v1/models`: the model names the token may use (`ModelListing`), in the OpenAI list shape, or the Anthropic
    /// API's for a request with `anthropic-version`.
    func models(_ request: HTTPServerRequest, _ ctx: inout RequestContext) {
        let anthropic = ModelListing.wantsAnthropicShape(request.headers)
        do {
            respondJSON(200, try modelListing(request, &ctx).list(anthropic: anthropic), &ctx)
        } catch {
            fail(GatewayError.from(error), Endpoint.errorSurface(for: request.path, headers: request.headers), &ctx)
        }
    }

    /// `GET /v1/models/{id}` (the SDKs' `models.retrieve`, decision 0131): one name of `GET /v1/models`'s list, in the
    /// same shape, or a 404 naming `model`.
    func model(_ request: HTTPServerRequest, _ ctx: inout RequestContext) {
        let anthropic = ModelListing.wantsAnthropicShape(request.headers)
        do {
            let listing = try modelListing(request, &ctx)
            let id = ModelListing.decodePathSegment(request.path.dropFirst(Endpoint.modelPrefix.count))
            respondJSON(200, listing.object(try listing.entry(id), anthropic: anthropic), &ctx)
        } catch {
            fail(GatewayError.from(error), Endpoint.errorSurface(for: request.path, headers: request.headers), &ctx)
        }
    }

    /// The names the request's token may use in the scenario its `x-skillgate-scenario` names (or its default).
    private func modelListing(_ request: HTTPServerRequest, _ ctx: inout RequestContext) throws -> ModelListing {
        let client = try authentication.authenticate(request)
        ctx.log.tokenName = client.name
        try client.requireChat()
        let scenario = try services.resolver.scenario(named: GatewayFields.once(request.headers, "x-skillgate-scenario"), scope: client.scope)
        return ModelListing(resolver: services.resolver, aliases: services.config.aliases, scenario: scenario.config, scope: client.scope,
                            callable: { [clients = services.clients] in clients.hasKey(for: $0) })
    }
}
