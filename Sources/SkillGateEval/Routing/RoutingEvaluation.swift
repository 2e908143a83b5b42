import SkillGateCore
import SkillGateRouting

/// Scores a router on labelled prompts: agreement overall, per class, per language and class,
/// per task kind, and the time per decision.
public struct RoutingEvaluation: Sendable {
    public struct Tally: Sendable, Hashable {
        public var hits = 0
        public var total = 0
        public init() {}
        mutating func add(_ hit: Bool) { total += 1; if hit { hits += 1 } }
        public var rate: Double { total == 0 ? 0 : Double(hits) / Double(total) }
    }

    public var overall = Tally()
    /// By label: `light`, `strong`.
    public var byClass: [String: Tally] = [:]
    /// By `lang/label` and `lang`.
    public var byLanguage: [String: Tally] = [:]
    /// By task kind.
    public var byKind: [String: Tally] = [:]
    /// Examples the router got wrong: id, label, probability or score.
    public var misses: [(id: String, label: String, score: Double)] = []
    public var timing: DecisionTiming?

    public init() {}

    /// Evaluates `router` on `examples` (no scenario lean, no header). With `timed`, also
    /// measures the time per decision.
    public static func run(_ router: TierRouter, on examples: [RoutingExample], timed: Bool = true) -> RoutingEvaluation {
        var e = RoutingEvaluation()
        for x in examples {
            let d = router.decide(x.request)
            e.record(x, predictedStrong: d.tier == .strong, score: d.score)
        }
        if timed {
            e.timing = DecisionTiming.measure(count: examples.count) { i in
                _ = router.decide(examples[i].request)
            }
        }
        return e
    }

    /// Records one prediction.
    public mutating func record(_ x: RoutingExample, predictedStrong: Bool, score: Double) {
        let hit = predictedStrong == x.strong
        let label = x.strong ? "strong" : "light"
        let lang = x.lang ?? "?"
        overall.add(hit)
        byClass[label, default: Tally()].add(hit)
        byLanguage[lang, default: Tally()].add(hit)
        byLanguage[lang + "/" + label, default: Tally()].add(hit)
        byKind[x.kind ?? "?", default: Tally()].add(hit)
        if !hit { misses.append((x.id, label, score)) }
    }

    /// The report as text: agreement tables, then the time per decision.
    public func render(title: String, listMisses: Bool = false) -> String {
        var out = title + "\n\n"
        var t = EvalTable(["slice", "agreement"])
        t.add(["all", EvalTable.ratio(overall.hits, overall.total)])
        for label in ["light", "strong"] { if let c = byClass[label] { t.add([label, EvalTable.ratio(c.hits, c.total)]) } }
        for key in byLanguage.keys.sorted() { t.add([key, EvalTable.ratio(byLanguage[key]!.hits, byLanguage[key]!.total)]) }
        out += t.render() + "\n"
        var k = EvalTable(["kind", "agreement"])
        for key in byKind.keys.sorted() { k.add([key, EvalTable.ratio(byKind[key]!.hits, byKind[key]!.total)]) }
        out += k.render()
        if let timing {
            out += "\nper decision: \(EvalTable.fixed(timing.medianMicros, 2)) µs median pass, \(EvalTable.fixed(timing.bestMicros, 2)) µs best pass, \(EvalTable.fixed(timing.worstMicros, 1)) µs slowest single (\(timing.decisions) decisions)\n"
        }
        if listMisses && !misses.isEmpty {
            out += "\nmisses (id, label, score)\n"
            for m in misses { out += "  \(m.id)  \(m.label)  \(EvalTable.fixed(m.score, 3))\n" }
        }
        return out
    }
}
