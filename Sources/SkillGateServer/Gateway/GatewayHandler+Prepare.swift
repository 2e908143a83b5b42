import SkillGateCore
import SkillGateHTTP

/// A decoded chat request made ready for a model call: its scenario, the skills the model may see,
/// and the route plan.
struct PreparedChat {
    let scenario: (name: String, config: GatewayConfig.ScenarioConfig)
    let skills: SkillDecision
    /// The request with the visible tools only.
    let request: ChatRequest
    let plan: RoutePlan
}

extension GatewayHandler {
    /// The steps every chat surface (OpenAI, Anthropic, agent) takes between decoding and the model
    /// call: scenario (the request's, else the header's, else the token's default), skill policy
    /// (packs, relevance cut, removal or 403), route plan (tier header, `auto` scoring), stickiness.
    func prepare(_ request: ChatRequest, for client: AuthenticatedClient, scenario requestedScenario: String?,
                 headers: HTTPHeaders, _ ctx: inout RequestContext) async throws -> PreparedChat {
        let scenario = try services.resolver.scenario(named: requestedScenario ?? headers["x-skillgate-scenario"], scope: client.scope)
        ctx.log.scenario = scenario.name
        var request = request
        let skills = try await applySkillPolicy(&request, scenario: scenario.name, &ctx)
        var plan = try services.resolver.plan(for: request, tierHeader: headers["x-skillgate-tier"],
                                              scenario: scenario.config, scope: client.scope)
        // Stickiness: answers to tool calls go back to the deployment that issued them.
        plan = services.executor.includingIssuer(of: request, in: plan) { name in
            try? services.resolver.plan(requested: name, scenario: scenario.config, scope: client.scope).targets.first
        }
        ctx.log.route = plan.route
        return PreparedChat(scenario: scenario, skills: skills, request: request, plan: plan)
    }
}
