import SkillGateCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Picks the light or the strong tier with a `RouterModel`: the probability that the task needs
/// the strong tier, compared with the model's (or the config's) threshold.
///
/// Explanations: each named feature's share of the log-odds, the n-grams of the task summed as
/// `words` and those of earlier turns as `context_words`, and the scenario's lean.
public struct LearnedTierScorer: Sendable {
    public let model: RouterModel
    /// The probability at or above which the strong tier is chosen.
    public var threshold: Double
    /// Log-odds added (strong) or subtracted (light) when the scenario's default is a tier.
    public var scenarioLean: Double

    /// The default lean: a task at p = 0.5 moves to 0.73 (strong lean) or 0.27 (light lean).
    public static let defaultScenarioLean = 1.0

    public init(model: RouterModel, threshold: Double? = nil, scenarioLean: Double = Self.defaultScenarioLean) {
        self.model = model
        self.threshold = threshold ?? model.threshold
        self.scenarioLean = scenarioLean
    }

    /// The probability of `strong` for `request`, with no lean (evaluation and training).
    public func probability(_ request: ChatRequest) -> Double {
        let l = model.logit(RouterInput(request: request, hashBits: model.hashBits))
        return Self.sigmoid(l.named + l.grams)
    }

    /// Decides the tier for `request`.
    /// - Parameters:
    ///   - hint: a tier forced by the client (`x-skillgate-tier`); wins over the score.
    ///   - scenarioLean: the scenario's default tier, if it is one.
    ///   - explain: also list the n-grams with the largest shares (for `route explain`; slower).
    public func decide(_ request: ChatRequest, hint: RouteTier? = nil, scenarioLean lean: RouteTier? = nil, explain: Bool = false) -> TierDecision {
        let input = RouterInput(request: request, hashBits: model.hashBits)
        var contributions: [TierDecision.Contribution] = []
        contributions.reserveCapacity(12)
        var logit = model.bias
        for f in RouterFeature.allCases {
            let level = input.levels[f.rawValue]
            guard level != 0 else { continue }
            let value = model.named[f.rawValue] * level
            logit += value
            if value != 0 { contributions.append(.init(name: f.name, level: level, value: value)) }
        }
        var words = 0.0, context = 0.0
        model.hashed.withUnsafeBufferPointer { w in
            for k in input.buckets.indices {
                let v = Double(w[Int(input.buckets[k])] * input.values[k])
                if k >= input.taskGramCount { context += v } else { words += v }
            }
        }
        logit += words + context
        if words != 0 { contributions.append(.init(name: "words", level: 1, value: words)) }
        if context != 0 { contributions.append(.init(name: "context_words", level: 1, value: context)) }
        if let lean, scenarioLean != 0 {
            let v = lean == .strong ? scenarioLean : -scenarioLean
            logit += v
            contributions.append(.init(name: "scenario_default", level: lean == .strong ? 1 : -1, value: v))
        }
        contributions.sort { abs($0.value) > abs($1.value) || (abs($0.value) == abs($1.value) && $0.name < $1.name) }
        let p = Self.sigmoid(logit)
        var d = TierDecision(tier: hint ?? (p >= threshold ? .strong : .light), source: hint == nil ? .score : .header,
                             score: p, threshold: threshold, contributions: contributions, features: input.task)
        d.input = input
        if explain { d.terms = Self.terms(of: request, model: model) }
        return d
    }

    @inline(__always)
    static func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    /// The n-grams of the task and context with the largest shares, at most 10, largest first.
    static func terms(of request: ChatRequest, model: RouterModel) -> [TierDecision.TermContribution] {
        let texts = RouterInput.texts(of: request)
        var out: [String: TierDecision.TermContribution] = [:]
        let shift = UInt64(64 - model.hashBits)
        func collect(_ text: String, seed: UInt64, scale: Float, context: Bool) {
            var s = TextSignals(seed: seed, keepSpans: true)
            s.scan(text)
            let bytes = Array(text.utf8)
            let distinct = Set(s.grams.map { $0 >> shift }).count
            guard distinct > 0 else { return }
            let v = scale / Float(distinct).squareRoot()
            for (gram, span) in zip(s.grams, s.spans) {
                let term = String(decoding: bytes[span], as: UTF8.self).lowercased()
                let key = (context ? "^" : "") + term
                guard out[key] == nil else { continue }
                let value = Double(model.hashed[Int(gram >> shift)] * v)
                if value != 0 { out[key] = .init(term: term, fromContext: context, value: value) }
            }
        }
        collect(texts.task, seed: RouterInput.taskSeed, scale: 1, context: false)
        for c in texts.context { collect(c, seed: RouterInput.contextSeed, scale: RouterInput.contextScale, context: true) }
        return Array(out.values.sorted { abs($0.value) > abs($1.value) || (abs($0.value) == abs($1.value) && $0.term < $1.term) }.prefix(10))
    }
}
