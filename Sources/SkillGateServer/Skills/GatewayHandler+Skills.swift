import SkillGateCore
import SkillGateProviders
import SkillGateSkills

extension GatewayHandler {
    /// Applies the scenario's skill policy to the decoded request (see `SkillPolicy`) and records
    /// the decision in the log line and the `x-skillgate-skills` header.
    func applySkillPolicy(_ request: inout ChatRequest, scenario: String, _ ctx: inout RequestContext) throws(GatewayError) -> SkillDecision {
        let decision = try services.skills.apply(to: &request, scenario: scenario)
        ctx.log.skills = decision
        return decision
    }

    /// Runs `body` (the attempt loop over `plan`) with the scenario's answer checks in force. When
    /// an answer below the escalation tier is unusable (see `AnswerGuardClient`), nothing has reached
    /// the client yet, so `body` runs once more over the escalation tier's plan; the escalation is
    /// counted in the log.
    func withAnswerChecks(_ decision: SkillDecision, scenario: (name: String, config: GatewayConfig.ScenarioConfig), scope: AccessScope,
                          plan: RoutePlan, _ ctx: inout RequestContext,
                          _ body: (RoutePlan, inout RequestContext) async throws -> Void) async throws {
        let checks = AnswerCheckScope(escalateTo: decision.escalateTo, scenario: scenario.name)
        try await AnswerCheckScope.$current.withValue(checks) {
            do {
                try await body(plan, &ctx)
            } catch let e as GatewayError where e.upstreamCode == AnswerGuardClient.escalationCode {
                guard let tier = decision.escalateTo, !Task.isCancelled else { throw e }
                let strong = try services.resolver.plan(requested: tier.rawValue, scenario: scenario.config, scope: scope)
                ctx.log.escalations += 1
                ctx.log.skills?.escalatedBecause = e.param ?? "unusable"
                ctx.log.route = (ctx.log.route.map { $0 + "; " } ?? "") + "escalated to \(tier.rawValue): \(e.param ?? "unusable answer")"
                try await body(strong, &ctx)
            }
        }
    }
}
