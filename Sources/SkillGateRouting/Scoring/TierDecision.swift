/// Why a request goes to a tier: the tier, how it was decided, and (when scored) the score, the
/// threshold and each feature's contribution, largest first.
public struct TierDecision: Sendable, Hashable {
    /// How the tier was decided.
    public enum Source: String, Sendable, Hashable {
        /// Scored from the task's features.
        case score
        /// Forced by the `x-skillgate-tier` header.
        case header
    }

    /// One feature's share of the score.
    public struct Contribution: Sendable, Hashable {
        /// The feature's name (`reasoning`, `asks`, `words`, ...).
        public var name: String
        /// The marker scorer's feature, when the decision came from it.
        public var feature: RoutingFeature?
        /// The feature's level (0...1; -1...1 for the scenario's lean).
        public var level: Double
        /// `weight × level` (log-odds for the learned router).
        public var value: Double

        public init(feature: RoutingFeature, level: Double, value: Double) {
            name = feature.rawValue
            self.feature = feature
            self.level = level
            self.value = value
        }

        public init(name: String, level: Double, value: Double) {
            self.name = name
            feature = nil
            self.level = level
            self.value = value
        }
    }

    /// One n-gram's share of the learned router's score (for `route explain`).
    public struct TermContribution: Sendable, Hashable {
        /// The word, word pair or characters as they appear in the prompt.
        public var term: String
        /// Whether it came from an earlier user turn rather than the task.
        public var fromContext: Bool
        public var value: Double
    }

    public var tier: RouteTier
    public var source: Source
    /// The sum of the contributions.
    public var score: Double
    public var threshold: Double
    /// Non-zero contributions, largest magnitude first.
    public var contributions: [Contribution]
    /// The features the decision was made from.
    public var features: TaskFeatures
    /// The learned router's n-grams with the largest shares, when an explanation was asked for.
    public var terms: [TermContribution] = []
    /// The learned router's feature levels, when it decided.
    public var input: RouterInput? = nil

    /// The `x-skillgate-route` header value (ASCII): `tier=strong; by=score; score=0.85;
    /// reasons=reasoning(+0.70),code_blocks(+0.20)` with at most `maxReasons` reasons, or
    /// `tier=strong; by=header` when the header forced it.
    public func headerValue(maxReasons: Int = 3) -> String {
        var s = "tier=" + tier.rawValue + "; by=" + source.rawValue
        guard source == .score else { return s }
        s += "; score=" + Self.format(score) + "; reasons="
        if contributions.isEmpty { return s + "none" }
        for (i, c) in contributions.prefix(maxReasons).enumerated() {
            if i > 0 { s += "," }
            s += c.name + "(" + Self.format(c.value, signed: true) + ")"
        }
        return s
    }

    /// `value` with two decimals (`0.72`, `+0.30`, `-0.15`), without Foundation's formatter.
    public static func format(_ value: Double, signed: Bool = false) -> String {
        let hundredths = Int((abs(value) * 100).rounded())
        let sign = value < 0 && hundredths != 0 ? "-" : (signed ? "+" : "")
        let frac = hundredths % 100
        return sign + String(hundredths / 100) + "." + (frac < 10 ? "0" : "") + String(frac)
    }
}
