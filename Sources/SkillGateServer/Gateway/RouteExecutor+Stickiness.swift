import SkillGateCore
import SkillGateRouting

extension RouteExecutor {
    /// When `request` answers tool calls another deployment issued and that deployment is not in
    /// `plan` (the client asked for another tier or model), adds it in front — if `resolve` (the
    /// resolver, within the token's and scenario's scope) allows it. Notes the choice in the explanation.
    func includingIssuer(of request: ChatRequest, in plan: RoutePlan, resolve: (String) -> RouteTarget?) -> RoutePlan {
        guard let issuer = affinity.issuer(of: request) else { return plan }
        var plan = plan
        let note = "sticky: tool call \(issuer.callId) issued by \(issuer.deployment)"
        if plan.targets.contains(where: { $0.qualifiedName == issuer.deployment }) {
            plan.explanation += plan.explanation.isEmpty ? note : "; " + note
        } else if let target = resolve(issuer.deployment) {
            plan.targets.insert(target, at: 0)
            plan.explanation += plan.explanation.isEmpty ? note : "; " + note
        }
        return plan
    }
}
