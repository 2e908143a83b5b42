import SkillGateCore
import SkillGateHTTP

extension GatewayHandler {
    /// `GET /readyz`: the config is loaded, the key store readable and the state file the one opened at start.
    /// Unauthenticated, so it says only that: `{"status":"ready"}` or 503 `{"status":"not_ready","reason":…}` with
    /// `key store unreadable` or `state database moved` (decision 0099). What is wrong (paths, modes) goes to the log,
    /// and `skillgate config check` shows it.
    func ready(_ ctx: inout RequestContext) {
        do {
            _ = try services.keys.reloadIfChanged()
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

    /// `GET /v1/models`: the models and aliases the token may use, in the OpenAI list shape.
    func models(_ request: HTTPServerRequest, _ ctx: inout RequestContext) {
        do {
            let client = try authentication.authenticate(request)
            ctx.log.tokenName = client.name
            try client.requireChat()
            let scenario = try services.resolver.scenario(named: GatewayFields.once(request.headers, "x-skillgate-scenario"), scope: client.scope)
            let targets = services.resolver.visibleModels(scenario: scenario.config, scope: client.scope)
            var data: [JSONValue] = targets.map { t in
                ["id": .string(t.qualifiedName), "object": "model", "created": 0, "owned_by": .string(t.provider.id)]
            }
            let names = Set(targets.map(\.qualifiedName))
            for (alias, target) in services.config.aliases.sorted(by: { $0.key < $1.key }) where names.contains(target) {
                data.append(["id": .string(alias), "object": "model", "created": 0, "owned_by": "skillgate-alias"])
            }
            respondJSON(200, ["object": "list", "data": .array(data)], &ctx)
        } catch {
            fail(GatewayError.from(error), OpenAIChatSurface(), &ctx)
        }
    }
}
