import SkillGateCore
import SkillGateRouting
import SkillGateSkills

extension GatewayHandler {
    /// Everything an agent run needs from the request pipeline.
    struct AgentSetup: Sendable {
        var plan: RoutePlan
        /// The escalation tier's plan when the scenario escalates.
        var escalation: RoutePlan?
        var checks: AnswerCheckScope
        var skills: [String: any Skill]
        var context: SkillContext
    }

    /// Prepares an agent run: the visible server skills, the escalation plan, the answer checks
    /// (invisible calls go back to the model instead of failing the request).
    func agentSetup(_ decision: SkillDecision, scenario: (name: String, config: GatewayConfig.ScenarioConfig), scope: AccessScope,
                    plan: RoutePlan, tokenName: String, requestId: String) -> AgentSetup {
        let escalation = decision.escalateTo.flatMap { try? services.resolver.plan(requested: $0.rawValue, scenario: scenario.config, scope: scope) }
        var checks = AnswerCheckScope(escalationTargets: escalation.map { Set($0.targets.map(\.qualifiedName)) }, scenario: scenario.name)
        checks.invisibleCallsToModel = true
        var skills: [String: any Skill] = [:]
        for name in decision.serverSkills { skills[name] = serverSkills.skill(named: name) }
        return AgentSetup(plan: plan, escalation: escalation, checks: checks, skills: skills,
                          context: SkillContext(tokenName: tokenName, requestId: requestId))
    }

    /// Runs the loop for `request` with the answer checks in force.
    func runAgent(_ request: ChatRequest, _ setup: AgentSetup, streamText: Bool, record: AgentRunRecord,
                  emit: @escaping AgentEventSink) async throws -> AgentOutcome {
        let loop = AgentLoop(settings: services.config.agent, skills: setup.skills, context: setup.context,
                             model: agentModelCall(setup, streamText: streamText, record: record), emit: emit)
        return try await AnswerCheckScope.$current.withValue(setup.checks) { try await loop.run(request) }
    }

    /// One model call per iteration through the `RouteExecutor`; an unusable answer is re-run on
    /// the escalation tier (that iteration only).
    private func agentModelCall(_ setup: AgentSetup, streamText: Bool, record: AgentRunRecord) -> AgentModelCall {
        let executor = services.executor
        return { request, iteration, emit in
            do {
                return try await Self.callModel(executor, request, plan: setup.plan, iteration: iteration, streamText: streamText, record: record, emit: emit)
            } catch let e as GatewayError where e.upstreamCode == AnswerGuardClient.escalationCode {
                guard let escalation = setup.escalation, !Task.isCancelled else { throw e }
                record.escalated(e.param)
                var checks = setup.checks
                checks.escalationTargets = nil
                return try await AnswerCheckScope.$current.withValue(checks) {
                    try await Self.callModel(executor, request, plan: escalation, iteration: iteration, streamText: streamText, record: record, emit: emit)
                }
            }
        }
    }

    private static func callModel(_ executor: RouteExecutor, _ request: ChatRequest, plan: RoutePlan, iteration: Int, streamText: Bool,
                                  record: AgentRunRecord, emit: AgentEventSink) async throws -> AgentTurn {
        var attempts: [AttemptRecord] = []
        let start = ContinuousClock.now
        if !streamText {
            let response: ChatResponse, target: RouteTarget
            do {
                (response, target) = try await executor.complete(request, plan: plan, attempts: &attempts)
            } catch {
                record.called(attempts, target: nil, ms: ms(since: start))
                throw error
            }
            record.called(attempts, target: target, ms: ms(since: start))
            try await emit(.routeSelected(provider: target.provider.id, model: target.qualifiedName, route: plan.route, iteration: iteration))
            return AgentTurn(response: response, costUSD: target.model.price?.cost(of: response.usage))
        }
        var upstream: UpstreamStream
        do {
            upstream = try await executor.openStream(request, plan: plan, attempts: &attempts)
        } catch {
            record.called(attempts, target: nil, ms: ms(since: start))
            throw error
        }
        defer { upstream.finish() }
        let target = upstream.target
        try await emit(.routeSelected(provider: target.provider.id, model: target.qualifiedName, route: plan.route, iteration: iteration))
        var acc = ChatResponseAccumulator()
        while let event = try await upstream.next() {
            acc.apply(event)
            if case .textDelta(let t) = event, !t.isEmpty { try await emit(.textDelta(t)) }
        }
        record.called(attempts, target: target, ms: ms(since: start))
        let response = acc.response
        return AgentTurn(response: response, costUSD: target.model.price?.cost(of: response.usage))
    }
}
