import SkillGateCore

/// The scorer behind `"model": "auto"`: the learned router (default) or the hand-weighted marker
/// scorer of earlier releases (`"routing": {"model": "markers"}`).
public enum TierRouter: Sendable {
    case learned(LearnedTierScorer)
    case markers(TierScorer)

    /// Decides the tier for `request` (see `LearnedTierScorer.decide` and `TierScorer.decide`).
    public func decide(_ request: ChatRequest, hint: RouteTier? = nil, scenarioLean: RouteTier? = nil, explain: Bool = false) -> TierDecision {
        switch self {
        case .learned(let s): s.decide(request, hint: hint, scenarioLean: scenarioLean, explain: explain)
        case .markers(let s): s.decide(TaskFeatures(request: request), hint: hint, scenarioLean: scenarioLean)
        }
    }
}
