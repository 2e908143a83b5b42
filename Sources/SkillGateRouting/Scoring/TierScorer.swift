/// Picks the light or the strong tier for a task: a weighted sum of feature levels compared
/// with a threshold. Pure and allocation-light (one small array for the explanation).
public struct TierScorer: Sendable, Hashable {
    public var weights: RoutingWeights

    public init(weights: RoutingWeights = .defaults) {
        self.weights = weights
    }

    /// Decides the tier for `features`.
    /// - Parameters:
    ///   - hint: a tier forced by the client (`x-skillgate-tier`); wins over the score.
    ///   - scenarioLean: the scenario's default tier, if it is one; it leans the score by
    ///     ± `routing.weights.scenario_default`.
    public func decide(_ features: TaskFeatures, hint: RouteTier? = nil, scenarioLean: RouteTier? = nil) -> TierDecision {
        var contributions: [TierDecision.Contribution] = []
        contributions.reserveCapacity(8)
        var score = 0.0
        func add(_ feature: RoutingFeature, _ level: Double) {
            guard level != 0 else { return }
            let value = weights[feature] * level
            guard value != 0 else { return }
            score += value
            contributions.append(.init(feature: feature, level: level, value: value))
        }
        let s = features.scan
        add(.reasoning, min(1, s.strengths.reasoning))
        add(.math, min(1, s.strengths.math))
        add(.code, min(1, s.strengths.code))
        add(.planning, min(1, s.strengths.planning))
        add(.codeBlocks, s.codeFences > 0 ? 1 : 0)
        add(.promptSize, RoutingFeature.ramp(Double(features.estimatedTokens), RoutingFeature.promptTokens))
        add(.depth, RoutingFeature.ramp(Double(features.messages), RoutingFeature.depthMessages))
        add(.tools, RoutingFeature.ramp(Double(features.toolsOffered), RoutingFeature.toolCount))
        add(.toolResult, features.answersToolResult ? 1 : 0)
        add(.structuredOutput, features.structuredOutput ? 1 : 0)
        add(.maxTokens, RoutingFeature.ramp(Double(features.maxTokens ?? 0), RoutingFeature.maxTokensRange))
        add(.thinking, features.thinking ? 1 : 0)
        if let scenarioLean { add(.scenarioDefault, scenarioLean == .strong ? 1 : -1) }
        contributions.sort { abs($0.value) > abs($1.value) || (abs($0.value) == abs($1.value) && $0.feature!.ordinal < $1.feature!.ordinal) }
        let threshold = weights.strongThreshold
        if let hint {
            return TierDecision(tier: hint, source: .header, score: score, threshold: threshold, contributions: contributions, features: features)
        }
        return TierDecision(tier: score >= threshold ? .strong : .light, source: .score, score: score, threshold: threshold,
                            contributions: contributions, features: features)
    }
}
