import SkillGateCore
import SkillGateSkills

/// Scores skill selection on labelled requests: recall@k (every expected tool among the k shown)
/// per category and language, the mean number of tools shown, how often the cut was blind or fell
/// back from embeddings to words, and the time per decision.
public struct SkillsEvaluation: Sendable {
    /// What a ranker decided for one request.
    public struct Outcome: Sendable {
        public var kept: [String]
        public var blind: Bool
        /// `lexical`, `hybrid`, `lexical_fallback(...)`.
        public var ranking: String
        /// Whether a selector model was asked (`skill_ranking.selector`), and what its call spent when it answered.
        public var askedSelector: Bool
        public var selectorUsage: Usage?
        public var selectorCostUSD: Double?

        public init(kept: [String], blind: Bool, ranking: String, askedSelector: Bool = false, selectorUsage: Usage? = nil,
                    selectorCostUSD: Double? = nil) {
            self.kept = kept
            self.blind = blind
            self.ranking = ranking
            self.askedSelector = askedSelector
            self.selectorUsage = selectorUsage
            self.selectorCostUSD = selectorCostUSD
        }
    }

    /// What the selector model's calls spent over the run: calls, the tokens of those that answered, and their
    /// cost at catalog prices (`priced` counts the answered calls that had a price).
    public struct SelectorSpend: Sendable {
        public var calls = 0
        public var answered = 0
        public var usage = Usage()
        public var costUSD = 0.0
        public var priced = 0
    }

    public var k: Int
    /// Recall by slice (`en`, `zh`, `cross`, `followup`, `same-language`, `all`, `lang:en`, ...).
    public var recall: [String: RoutingEvaluation.Tally] = [:]
    public var requestsWithoutTool = 0
    public var visibleTotal = 0
    public var decisions = 0
    public var blind = 0
    public var rankings: [String: Int] = [:]
    public var misses: [(id: String, expected: [String], kept: [String])] = []
    public var selector = SelectorSpend()
    /// Time per decision (the whole ranking call), in microseconds: median and 99th percentile.
    public var medianMicros = 0.0
    public var p99Micros = 0.0

    public init(k: Int) {
        self.k = k
    }

    /// The catalog as ranking candidates.
    public static func candidates(_ corpus: SkillsCorpus) -> [SkillCandidate] {
        corpus.tools.map { SkillCandidate(tool: $0.definition) }
    }

    /// Runs `rank` on every request and tallies the outcomes. With `timingPass`, the times come from a second pass
    /// (the first filled the caches — tool documents and vectors — as a long-running gateway has them); without it,
    /// from the one pass, for rankings that cost money per call (a selector model): one call per request.
    public static func run(_ requests: [SkillsCorpus.Request], k: Int, timingPass: Bool = true,
                           rank: (SkillsCorpus.Request) async -> Outcome) async -> SkillsEvaluation {
        var e = SkillsEvaluation(k: k)
        var times: [Double] = []
        let clock = ContinuousClock()
        for r in requests {
            let start = clock.now
            let outcome = await rank(r)
            times.append(DecisionTiming.micros(clock.now - start))
            e.record(r, outcome)
        }
        if timingPass {
            times.removeAll()
            for r in requests {
                let start = clock.now
                _ = await rank(r)
                times.append(DecisionTiming.micros(clock.now - start))
            }
        }
        times.sort()
        if !times.isEmpty {
            e.medianMicros = times[times.count / 2]
            e.p99Micros = times[min(times.count - 1, Int(Double(times.count) * 0.99))]
        }
        return e
    }

    mutating func record(_ r: SkillsCorpus.Request, _ o: Outcome) {
        decisions += 1
        visibleTotal += o.kept.count
        if o.blind { blind += 1 }
        rankings[o.ranking, default: 0] += 1
        if o.askedSelector {
            selector.calls += 1
            if let usage = o.selectorUsage {
                selector.answered += 1
                selector.usage = selector.usage + usage
            }
            if let cost = o.selectorCostUSD {
                selector.costUSD += cost
                selector.priced += 1
            }
        }
        guard !r.expected.isEmpty else { requestsWithoutTool += 1; return }
        let shown = Set(o.kept)
        let hit = r.expected.allSatisfy(shown.contains)
        recall[r.category, default: .init()].add(hit)
        recall["all", default: .init()].add(hit)
        recall["lang:" + r.lang, default: .init()].add(hit)
        if r.category == "en" || r.category == "zh" { recall["same-language", default: .init()].add(hit) }
        if !hit { misses.append((r.id, r.expected, o.kept)) }
    }

    /// The report as text.
    public func render(title: String, listMisses: Bool = false) -> String {
        var out = title + "\n\n"
        var t = EvalTable(["slice", "recall@\(k)"])
        for key in ["en", "zh", "cross", "followup", "same-language", "lang:en", "lang:zh", "all"] {
            if let r = recall[key] { t.add([key, EvalTable.ratio(r.hits, r.total)]) }
        }
        out += t.render()
        out += "\nrequests needing no tool: \(requestsWithoutTool)\n"
        out += "mean visible tools: \(EvalTable.fixed(decisions == 0 ? 0 : Double(visibleTotal) / Double(decisions), 2))\n"
        out += "blind cuts: \(blind) of \(decisions)\n"
        out += "ranking: " + rankings.keys.sorted().map { "\($0) \(rankings[$0]!)" }.joined(separator: ", ") + "\n"
        out += "per decision: \(EvalTable.fixed(medianMicros, 1)) µs median, \(EvalTable.fixed(p99Micros, 1)) µs p99 (caches warm)\n"
        if selector.calls > 0 { out += selectorLine() }
        if listMisses && !misses.isEmpty {
            out += "\nmisses (id: expected -> shown)\n"
            for m in misses { out += "  \(m.id): \(m.expected.joined(separator: ",")) -> \(m.kept.joined(separator: ","))\n" }
        }
        return out
    }
}

extension SkillsEvaluation {
    /// `selector: 294 calls, 290 answered, mean 431 input + 12 output tokens, $0.0213 in all ($0.072 per 1,000 requests)`.
    func selectorLine() -> String {
        var line = "selector: \(selector.calls) calls, \(selector.answered) answered"
        if selector.answered > 0 {
            let n = Double(selector.answered)
            line += ", mean \(EvalTable.fixed(Double(selector.usage.inputTokens) / n, 0)) input + "
                + "\(EvalTable.fixed(Double(selector.usage.outputTokens) / n, 0)) output tokens"
        }
        if selector.priced == selector.answered, selector.answered > 0 {
            line += ", $\(EvalTable.fixed(selector.costUSD, 4)) in all ($\(EvalTable.fixed(selector.costUSD * 1000 / Double(selector.calls), 3)) per 1,000 requests)"
        } else if selector.answered > 0 {
            line += "; no catalog price for the model, so no cost"
        }
        return line + "\n"
    }

    /// For tuning offline (on dev): a first JSON line with the tools (`name`, and `text`, what an embedding model
    /// sees), then one line per request with its `id`, `split`, `category`, `lang`, `expected` tools, `semantic_query`
    /// (the text an embedding model sees) and `lexical`, its BM25 score per tool in the tools' order.
    public static func scoreDump(_ requests: [SkillsCorpus.Request], _ candidates: [SkillCandidate]) -> [UInt8] {
        let cache = SkillDocumentCache()
        var out: [UInt8] = []
        let tools: JSONValue = .array(candidates.map { .object(["name": .string($0.name), "text": .string($0.embeddingText)]) })
        out += JSONValue.object(["tools": tools]).serializedBytes() + [0x0A]
        for r in requests {
            let cut = SkillRelevance.select(candidates, query: SkillRelevance.query(from: r.messages), limit: candidates.count,
                                            pinned: [], cache: cache)
            let line: JSONValue = .object([
                "id": .string(r.id), "split": .string(r.split ?? ""), "category": .string(r.category), "lang": .string(r.lang),
                "expected": .array(r.expected.map(JSONValue.string)),
                "semantic_query": .string(SkillRelevance.semanticQuery(from: r.messages)),
                "lexical": .array(candidates.map { .double(cut.scores[$0.name] ?? 0) }),
            ])
            out += line.serializedBytes() + [0x0A]
        }
        return out
    }
}
