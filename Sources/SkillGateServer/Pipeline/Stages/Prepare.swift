import SkillGateCore
import SkillGateHTTP
import SkillGateRouting
import SkillGateSkills

/// A decoded request made ready for model calls: its scenario, the skills the model may see, the
/// route plan, the escalation plan, and the rules answers are checked by.
struct PreparedCall: Sendable {
    let client: AuthenticatedClient
    let scenario: (name: String, config: GatewayConfig.ScenarioConfig)
    let skills: SkillDecision
    /// The request with the visible tools only.
    let request: ChatRequest
    let plan: RoutePlan
    /// The escalation tier's plan, when the scenario escalates and the token may use that tier.
    let escalation: RoutePlan?
    let answers: AnswerPolicy
}

/// The prepare stage: everything decided about a request before a model is called — scenario (the
/// request's, else the header's, else the token's default), limits and budgets (`LimitsStage`: a 429 before
/// any upstream call), skill policy (packs, relevance cut,
/// removal or 403), route plan (tier header, `auto` scoring, stickiness to the deployment that
/// issued the tool calls being answered) and escalation.
struct PrepareStage: Sendable {
    let resolver: ModelResolver
    let skills: SkillPolicy
    let executor: RouteExecutor
    let serverSkills: SkillRegistry
    let limits: LimitsStage

    func prepare(_ request: SurfaceRequest, for client: AuthenticatedClient, headers: HTTPHeaders, _ ctx: inout RequestContext) async throws -> PreparedCall {
        let scenario = try resolver.scenario(named: request.scenario ?? headers["x-skillgate-scenario"], scope: client.scope)
        ctx.log.scenario = scenario.name
        // Limits and budgets before anything else that could reach out (embedders, providers).
        ctx.limitTicket = try limits.admit(client, scenario: scenario.name, stream: request.stream)
        var chat = request.chat
        chat.cachePlacement = try resolver.config.cachePlacement(header: headers["x-skillgate-cache-breakpoints"], scenario: scenario.config)
        let decision = try await skills.apply(to: &chat, scenario: scenario.name, serverSkills: serverSkills)
        ctx.log.skills = decision
        var plan = try resolver.plan(for: chat, tierHeader: headers["x-skillgate-tier"], scenario: scenario.config, scope: client.scope)
        plan = executor.includingIssuer(of: chat, in: plan) { name in
            try? resolver.plan(requested: name, scenario: scenario.config, scope: client.scope).targets.first
        }
        ctx.log.route = plan.route
        let escalation = decision.escalateTo.flatMap { try? resolver.plan(requested: $0.rawValue, scenario: scenario.config, scope: client.scope) }
        let answers = AnswerPolicy(escalationTargets: escalation.map { Set($0.targets.map(\.qualifiedName)) }, scenario: scenario.name)
        return PreparedCall(client: client, scenario: scenario, skills: decision, request: chat, plan: plan,
                            escalation: escalation, answers: answers)
    }
}
