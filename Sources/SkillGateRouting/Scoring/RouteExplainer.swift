#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders a routing decision for people (`skillgate route explain`): the features, each
/// feature's contribution, the score against the threshold, the tier and its targets.
public enum RouteExplainer {
    /// The explanation as lines of plain text.
    /// - Parameters:
    ///   - scenario: the scenario's name and what it defaults to (`chat (default light)`).
    ///   - targets: the tier's `provider/model`s in order of preference.
    ///   - note: anything that changed the outcome after scoring (a tier the scenario does not allow).
    public static func render(_ d: TierDecision, scenario: String, targets: [String], weights: RoutingWeights, note: String? = nil) -> String {
        let f = d.features
        var out = "scenario      \(scenario)\n"
        out += "features\n"
        func row(_ name: String, _ value: String) { out += "  " + pad(name, 22) + value + "\n" }
        row("prompt tokens (est.)", String(f.estimatedTokens))
        row("messages", String(f.messages))
        row("tools offered", String(f.toolsOffered))
        row("answers tool result", f.answersToolResult ? "yes" : "no")
        row("code blocks", String(f.codeBlocks))
        for category in MarkerCategory.allCases {
            let found = f.scan.markers(in: category)
            row(category.name + " markers", found.isEmpty ? "-" : found.joined(separator: ", ")
                + " (strength " + TierDecision.format(f.scan.strength(category)) + ")")
        }
        row("structured output", f.structuredOutput ? "yes" : "no")
        row("max tokens", f.maxTokens.map(String.init) ?? "-")
        row("thinking", f.thinking ? "yes" : "no")
        if d.input != nil {
            out += learnedContributions(d)
        } else {
            out += "contributions (weight x level)\n"
            if d.contributions.isEmpty { out += "  none\n" }
            for c in d.contributions {
                guard let feature = c.feature else { continue }
                let value = TierDecision.format(c.value, signed: true)
                let weight = TierDecision.format(weights[feature], signed: true)
                out += "  " + pad(c.name, 18) + pad(value, 7) + "= " + weight + " x " + TierDecision.format(c.level)
                out += "  (" + feature.levelDescription + ")\n"
            }
        }
        let scoreName = d.input != nil ? "p(strong)     " : "score         "
        out += scoreName + "\(TierDecision.format(d.score))  (strong at >= \(TierDecision.format(d.threshold)))\n"
        switch d.source {
        case .score: out += "tier          \(d.tier.rawValue)\n"
        case .header: out += "tier          \(d.tier.rawValue) (forced by the \(TierHint.header) header; the score is not used)\n"
        }
        if let note { out += "note          \(note)\n" }
        out += "targets       \(targets.isEmpty ? "-" : targets.joined(separator: ", "))\n"
        out += "header        x-skillgate-route: \(d.headerValue())\n"
        return out
    }

    /// The learned router's side: demand levels, contributions in log-odds, the n-grams that weigh most.
    static func learnedContributions(_ d: TierDecision) -> String {
        var out = "demand\n"
        let input = d.input!
        let before = out
        for f in [RouterFeature.asks, .constraints, .numbers, .data, .outputLength, .brevity, .lightIntent, .legal, .performance, .chinese, .contextMarkers, .technicalContext] {
            let level = input[f]
            guard level != 0 else { continue }
            out += "  " + pad(f.name, 22) + TierDecision.format(level) + "  (" + f.levelDescription + ")\n"
        }
        if out == before { out += "  none\n" }
        out += "contributions (log-odds; learned weight x level)\n"
        if d.contributions.isEmpty { out += "  none\n" }
        for c in d.contributions {
            out += "  " + pad(c.name, 18) + TierDecision.format(c.value, signed: true) + "\n"
        }
        if d.score > 0 && d.score < 1 {
            let bias = log(d.score / (1 - d.score)) - d.contributions.map(\.value).reduce(0, +)
            out += "  " + pad("(bias)", 18) + TierDecision.format(bias, signed: true) + "  (the model's log-odds with no feature)\n"
        }
        if !d.terms.isEmpty {
            out += "words that weigh most\n"
            for t in d.terms {
                let term = t.term.count > 40 ? String(t.term.prefix(40)) + "…" : t.term
                out += "  " + pad("\"" + term + "\"" + (t.fromContext ? " (earlier turn)" : ""), 34) + TierDecision.format(t.value, signed: true) + "\n"
            }
        }
        return out
    }

    private static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
    }
}
