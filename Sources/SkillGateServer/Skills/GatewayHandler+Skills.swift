import SkillGateCore
import SkillGateProviders
import SkillGateSkills

extension GatewayHandler {
    /// Applies the scenario's skill policy to the decoded request (see `SkillPolicy`) and records
    /// the decision in the log line and the `x-skillgate-skills` header.
    func applySkillPolicy(_ request: inout ChatRequest, scenario: String, _ ctx: inout RequestContext) async throws(GatewayError) -> SkillDecision {
        let decision = try await services.skills.apply(to: &request, scenario: scenario, serverSkills: serverSkills)
        ctx.log.skills = decision
        return decision
    }

    /// Runs `body` (the attempt loop over `plan`) with the scenario's answer checks in force. When
    /// an answer from a model outside the escalation plan is unusable (see `AnswerGuardClient`),
    /// nothing has reached the client yet, so `body` runs once more over the escalation tier's plan
    /// (with only the invisible-call rule in force); the escalation is counted in the log. A token
    /// that may not use the escalation tier gets no escalation.
    func withAnswerChecks(_ decision: SkillDecision, scenario: (name: String, config: GatewayConfig.ScenarioConfig), scope: AccessScope,
                          plan: RoutePlan, _ ctx: inout RequestContext,
                          _ body: (RoutePlan, inout RequestContext) async throws -> Void) async throws {
        let escalation = decision.escalateTo.flatMap { try? services.resolver.plan(requested: $0.rawValue, scenario: scenario.config, scope: scope) }
        let checks = AnswerCheckScope(escalationTargets: escalation.map { Set($0.targets.map(\.qualifiedName)) }, scenario: scenario.name)
        try await AnswerCheckScope.$current.withValue(checks) {
            do {
                try await body(plan, &ctx)
            } catch let e as GatewayError where e.upstreamCode == AnswerGuardClient.escalationCode {
                guard let escalation, let tier = decision.escalateTo, !Task.isCancelled else { throw e }
                ctx.log.escalations += 1
                ctx.log.skills?.escalatedBecause = e.param ?? "unusable"
                ctx.log.route = (ctx.log.route.map { $0 + "; " } ?? "") + "escalated to \(tier.rawValue): \(e.param ?? "unusable answer")"
                try await AnswerCheckScope.$current.withValue(AnswerCheckScope(escalationTargets: nil, scenario: scenario.name)) {
                    try await body(escalation, &ctx)
                }
            }
        }
    }
}
