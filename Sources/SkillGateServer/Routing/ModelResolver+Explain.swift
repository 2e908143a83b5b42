import SkillGateCore
import SkillGateRouting

extension ModelResolver {
    /// `skillgate route explain`: how `auto` would route `prompt` (one user message) in `scenario`.
    /// - Returns: the features, their contributions, the score, the threshold, the tier and its targets.
    public func explain(prompt: String, scenario requested: String?, tierHeader: String? = nil) throws(GatewayError) -> String {
        let scenario = try self.scenario(named: requested, scope: .unrestricted)
        let request = ChatRequest(model: "auto", messages: [Message(role: .user, text: prompt)])
        let hint = try TierHint.parse(tierHeader)
        let p = try autoPlan(for: request, hint: hint, scenario: scenario.config, scope: .unrestricted, explain: true)
        let fallback = config.autoDefault(for: scenario.config)
        let title = "\(scenario.name) (default \(fallback))"
        let targets = p.targets.map(\.qualifiedName)
        guard let decision = p.decision else {
            return "scenario      \(title)\nauto is not scored here: the scenario's default is a model, not a tier\n"
                + "targets       \(targets.joined(separator: ", "))\nheader        x-skillgate-route: \(p.route)\n"
        }
        let adjusted = p.route.contains("adjusted=")
        return RouteExplainer.render(decision, scenario: title, targets: targets, weights: config.routing.weights,
                                     note: adjusted ? "the \(decision.tier.rawValue) tier is not allowed in this scenario; using \(decision.tier.other.rawValue)" : nil)
    }
}
