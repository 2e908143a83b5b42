import SkillGateCore
import SkillGateHTTP
import SkillGateRouting
import SkillGateSkills

/// A decoded request made ready for model calls: its scenario, the skills the model may see, the
/// route plan, the escalation plan, and the rules answers are checked by. A reference: the later stages' async
/// frames hold a pointer, not a copy of the scenario's config and the plans (decision 0033).
final class PreparedCall: Sendable {
    let client: AuthenticatedClient
    let scenario: (name: String, config: GatewayConfig.ScenarioConfig)
    let skills: SkillDecision
    /// The request with the visible tools only.
    let request: ChatRequest
    let plan: RoutePlan
    /// The escalation tier's plan, when the scenario escalates and the token may use that tier.
    let escalation: RoutePlan?
    let answers: AnswerPolicy
    /// How the request uses the response cache; nil when its scenario does not cache (decision 0140).
    let cache: ResponseCacheUse?

    init(client: AuthenticatedClient, scenario: (name: String, config: GatewayConfig.ScenarioConfig), skills: SkillDecision,
         request: ChatRequest, plan: RoutePlan, escalation: RoutePlan?, answers: AnswerPolicy, cache: ResponseCacheUse? = nil) {
        self.client = client
        self.scenario = scenario
        self.skills = skills
        self.request = request
        self.plan = plan
        self.escalation = escalation
        self.answers = answers
        self.cache = cache
    }
}

/// The prepare stage: everything decided about a request before a model is called — scenario (the
/// request's, else the header's, else the token's default), limits and budgets (`LimitsStage`: a 429 before
/// any upstream call), skill policy (packs, relevance cut,
/// removal or 403), route plan (tier header, `auto` scoring, stickiness to the deployment that
/// issued the tool calls being answered), escalation, and how the request uses the response cache (`ResponseCacheStage`,
/// decision 0140: the key is taken here, where everything it depends on is decided).
struct PrepareStage: Sendable {
    let resolver: ModelResolver
    let skills: SkillPolicy
    let executor: RouteExecutor
    let serverSkills: SkillRegistry
    let limits: LimitsStage
    let responseCache: ResponseCacheStage

    func prepare(_ request: SurfaceRequest, for client: AuthenticatedClient, headers: HTTPHeaders, _ ctx: inout RequestContext) async throws -> PreparedCall {
        // Only the skill policy awaits (a semantic ranking may call the embedding server); the rest runs in plain
        // functions kept out of line, so their locals live on the thread's stack instead of this async frame — the
        // task keeps the memory of its largest frame for the whole request, streams included (decision 0033).
        var (scenario, chat, admitted) = try begin(request, for: client, headers: headers, &ctx)
        if !admitted {
            // The first request of its token or scenario in this process: their counts are read from the ledger first.
            ctx.limitTicket = try await limits.admit(client, scenario: scenario.name, stream: request.stream)
        }
        let decision = try await skills.apply(to: &chat, scenario: scenario.name, serverSkills: serverSkills)
        return try finish(chat, decision, scenario, client, headers, cacheable: request.cacheable, &ctx)
    }

    /// The scenario, limits and budgets, and the cache placement, before anything could reach out (embedders, providers).
    /// Not `admitted` when a subject's counts must first be read from the ledger: `prepare` then awaits `limits.admit`.
    @inline(never)
    private func begin(_ request: SurfaceRequest, for client: AuthenticatedClient, headers: HTTPHeaders, _ ctx: inout RequestContext) throws
        -> (scenario: (name: String, config: GatewayConfig.ScenarioConfig), chat: ChatRequest, admitted: Bool) {
        let scenario = try resolver.scenario(named: request.scenario ?? GatewayFields.once(headers, "x-skillgate-scenario"), scope: client.scope,
                                             param: request.scenario == nil ? "x-skillgate-scenario" : "scenario")
        ctx.log.scenario = scenario.name
        var admitted = false
        if case .admitted(let ticket) = try limits.admitWithoutReading(client, scenario: scenario.name, stream: request.stream) {
            ctx.limitTicket = ticket
            admitted = true
        }
        var chat = request.chat
        chat.cachePlacement = try resolver.config.cachePlacement(header: GatewayFields.once(headers, "x-skillgate-cache-breakpoints"), scenario: scenario.config)
        return (scenario, chat, admitted)
    }

    /// The route plan, stickiness, escalation, answer policy and use of the response cache of the request with its visible
    /// skills.
    @inline(never)
    private func finish(_ chat: ChatRequest, _ decision: SkillDecision, _ scenario: (name: String, config: GatewayConfig.ScenarioConfig),
                        _ client: AuthenticatedClient, _ headers: HTTPHeaders, cacheable: Bool, _ ctx: inout RequestContext) throws -> PreparedCall {
        ctx.log.skills = decision
        var plan = try resolver.plan(for: chat, tierHeader: GatewayFields.once(headers, "x-skillgate-tier"), scenario: scenario.config, scope: client.scope)
        plan = executor.includingIssuer(of: chat, in: plan) { name in
            try? resolver.plan(requested: name, scenario: scenario.config, scope: client.scope).targets.first
        }
        ctx.log.route = plan.route
        let escalation = decision.escalateTo.flatMap { try? resolver.plan(requested: $0.rawValue, scenario: scenario.config, scope: client.scope) }
        let answers = AnswerPolicy(escalationTargets: escalation.map { Set($0.targets.map(\.qualifiedName)) }, scenario: scenario.name)
        let cache = try responseCache.use(scenario: scenario.name, tokenId: client.tokenId, request: chat, plan: plan, escalation: escalation,
                                          cacheable: cacheable && decision.serverSkills.isEmpty, headers: headers, &ctx.log)
        return PreparedCall(client: client, scenario: scenario, skills: decision, request: chat, plan: plan,
                            escalation: escalation, answers: answers, cache: cache)
    }
}
