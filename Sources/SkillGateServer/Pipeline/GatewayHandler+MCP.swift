import SkillGateCore
import SkillGateHTTP
import SkillGateSkills

extension GatewayHandler {
    /// `POST /mcp`: one JSON-RPC message per request, answered as `application/json` (stateless: no
    /// `Mcp-Session-Id`). The token is checked like on every surface; the scenario is the
    /// `x-skillgate-scenario` header's or the token's default; `tools/list` shows exactly the
    /// server-side skills the scenario shows, and `tools/call` runs one through the agent loop's
    /// rules (argument validation, the skill's timeout capped by `agent.max_skill_timeout_seconds`,
    /// the result's text and structured content capped by `agent.max_result_bytes`). Every message, whatever its
    /// method, counts against the token's and the scenario's limits (decision 0118) and is logged.
    func serveMCP(_ request: HTTPServerRequest, _ ctx: inout RequestContext) async {
        var shape = MCPErrorShape()
        ctx.log.surface = shape.name
        do {
            let client = try authenticatedClient(request, &ctx)
            if let version = request.headers["mcp-protocol-version"], !MCPProtocol.versions.contains(version) {
                return answerMCP(.error(id: nil, error: JSONRPCError(code: JSONRPCError.invalidRequest,
                    message: "MCP-Protocol-Version \(version) is not supported; this server speaks \(MCPProtocol.versions.joined(separator: ", "))")), status: 400, &ctx)
            }
            let message: JSONRPCMessage
            // A client's message: a repeated key is refused, as on every surface (decision 0093).
            do { message = try JSONRPCMessage.decode(request.body, duplicateKeys: .refused) } catch {
                return answerMCP(.error(id: error.data.flatMap(JSONRPCId.init), error: JSONRPCError(code: error.code, message: error.message)),
                                 status: MCPProtocol.httpStatus(error), &ctx)
            }
            // From here on an error answers the request by its id (a scope refusal, a limit).
            if case .request(let id, _, _) = message { shape.id = id }
            // `/mcp` runs server-side skills: a chat surface, closed to admin-only tokens like the others.
            try client.requireChat()
            let scenario = try services.resolver.scenario(named: GatewayFields.once(request.headers, "x-skillgate-scenario"), scope: client.scope)
            ctx.log.scenario = scenario.name
            // Every message counts, as any request on the other surfaces does: initialize, ping, tools/list and
            // notifications write a log line and a ledger row too, and tools/list may rank with an embedding model.
            // One message per request (batches are refused above), so a request and a message are the same count.
            ctx.limitTicket = try await limits.admit(client, scenario: scenario.name, stream: false)
            guard case .request(let id, let method, let params) = message else {
                // Notifications (`notifications/initialized`) and responses need no answer.
                ctx.log.status = 202
                ctx.responder.respond(status: 202, headers: ["x-request-id": ctx.requestId], body: [])
                return answering.account(&ctx)
            }
            let answer: JSONRPCMessage
            do {
                switch method {
                case "initialize":
                    answer = .result(id: id, result: MCPProtocol.initializeResult(params))
                case "ping":
                    answer = .result(id: id, result: .object([:]))
                case "tools/list":
                    answer = .result(id: id, result: try MCPProtocol.toolsListResult(try await visibleSkills(scenario.name, &ctx), params: params,
                                                                                     version: request.headers["mcp-protocol-version"] ?? MCPProtocol.versionWithoutHeader))
                case "tools/call":
                    let call = try MCPProtocol.callParams(params)
                    guard let skill = try await visibleSkills(scenario.name, &ctx).first(where: { $0.name == call.name }) else {
                        throw JSONRPCError(code: JSONRPCError.invalidParams,
                                           message: "unknown tool \(MCPProtocol.quoted(call.name)): scenario \"\(scenario.name)\" does not show it; call tools/list for the tools you may call")
                    }
                    let result = try await runMCPCall(skill, arguments: call.arguments, client: client, &ctx)
                    answer = .result(id: id, result: MCPProtocol.callResult(result))
                default:
                    throw JSONRPCError(code: JSONRPCError.methodNotFound, message: "method \(MCPProtocol.quoted(method)) is not served here; /mcp serves initialize, ping, tools/list and tools/call")
                }
            } catch let error as JSONRPCError {
                ctx.log.error = error.message
                answer = .error(id: id, error: error)
            }
            answerMCP(answer, status: 200, &ctx)
        } catch {
            fail(GatewayError.from(error), shape, &ctx)
        }
    }

    /// The server-side skills `scenario` shows (its packs; `max_visible_skills` applies, ranked without a conversation).
    private func visibleSkills(_ scenario: String, _ ctx: inout RequestContext) async throws -> [any Skill] {
        var probe = ChatRequest(model: "", messages: [])
        let decision = try await services.skills.apply(to: &probe, scenario: scenario, serverSkills: serverSkills)
        ctx.log.skills = decision
        return decision.serverSkills.compactMap { serverSkills.skill(named: $0) }
    }

    /// One `tools/call`: the arguments validated against the skill's schema, a skill that needs a
    /// person's confirmation refused, the run timed out like in the agent loop, the result capped (its structured
    /// content dropped when over the bound).
    private func runMCPCall(_ skill: any Skill, arguments: JSONValue, client: AuthenticatedClient, _ ctx: inout RequestContext) async throws -> SkillResult {
        let agent = services.config.agent
        let result: SkillResult
        if skill.requiresConfirmation {
            result = SkillResult(text: "\(skill.name) needs a person's confirmation before it runs, which /mcp cannot ask for; call it through /v1/agent, which hands the call back to the client to confirm.", isError: true)
        } else {
            do {
                let valid = try ArgumentValidator.validate(arguments, schema: skill.parameters, tool: skill.name).value
                let timeout = min(skill.timeout, .milliseconds(Int64(agent.maxSkillTimeoutSeconds * 1000)))
                result = try await SkillExecution.run(skill, arguments: valid, context: SkillContext(tokenName: client.name, requestId: ctx.requestId), timeout: timeout)
                ctx.log.skillsRun = [skill.name]
            } catch let error as ArgumentValidationError {
                result = SkillResult(text: error.description, isError: true)
            }
        }
        services.metrics.skillRan(skill.name, ok: !result.isError)
        if result.isError { ctx.log.error = SkillExecution.summary(result.text) }
        return SkillExecution.capped(result, maxBytes: agent.maxResultBytes)
    }

    private func answerMCP(_ message: JSONRPCMessage, status: Int, _ ctx: inout RequestContext) {
        ctx.responder.respond(status: status, headers: ResponseHeaders.common(ctx), body: message.bytes)
        ctx.log.status = status
        answering.account(&ctx)
    }
}
