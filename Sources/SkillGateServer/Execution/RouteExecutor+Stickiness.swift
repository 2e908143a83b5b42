import SkillGateCore
import SkillGateRouting

extension RouteExecutor {
    /// When `request` answers tool calls another deployment issued and that deployment is not in
    /// `plan` (the client asked for another tier or alias), adds it in front — if `resolve` (the
    /// resolver, within the token's and scenario's scope) allows it. A client that names one concrete
    /// `provider/model` gets exactly that. Notes the choice in the explanation.
    func includingIssuer(of request: ChatRequest, in plan: RoutePlan, resolve: (String) -> RouteTarget?) -> RoutePlan {
        guard let issuer = affinity.issuer(of: request) else { return plan }
        var plan = plan
        let note = "sticky: tool call \(issuer.callId) issued by \(issuer.deployment)"
        if plan.targets.contains(where: { $0.qualifiedName == issuer.deployment }) {
            plan.note(note)
        } else if !plan.isConcreteModel, let target = resolve(issuer.deployment) {
            plan.targets.insert(target, at: 0)
            plan.note(note)
        }
        return plan
    }
}

extension RoutePlan {
    /// The client named one `provider/model` (not a tier, alias or `auto`).
    var isConcreteModel: Bool { targets.count == 1 && requested == targets[0].qualifiedName }
}

extension RoutePlan {
    /// Appends a note to both the explanation and the route (header and log).
    mutating func note(_ text: String) {
        explanation += explanation.isEmpty ? text : "; " + text
        route += route.isEmpty ? text : "; " + text
    }
}
