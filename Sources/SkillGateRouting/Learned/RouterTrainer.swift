#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fits a `RouterModel` to labelled examples: L2-regularised logistic regression, full-batch
/// Adam in a fixed order, so the same examples and options always give the same weights (the
/// shipped default model is checked against a fresh fit of the corpus in the tests).
public struct RouterTrainer: Sendable {
    /// Training options; `docs/decisions/0018-learned-router.md` says how the defaults were chosen
    /// (cross-validation on the corpus's dev split).
    public struct Options: Sendable, Hashable {
        public var hashBits = 18
        public var iterations = 300
        public var learningRate = 0.05
        /// L2 penalty of the named features (few, general: light).
        public var l2Named = 0.0001
        /// L2 penalty of the n-gram weights (many, specific: heavier).
        public var l2Hashed = 0.002
        /// How much a strong example counts relative to a light one (a strong task on the light
        /// tier fails silently; a light task on the strong tier only costs more).
        public var strongWeight = 1.6
        public var threshold = 0.5

        public init() {}

        /// `hash_bits=18 iterations=300 ...`, for provenance lines.
        public var summary: String {
            "hash_bits=\(hashBits) iterations=\(iterations) lr=\(learningRate) l2_named=\(l2Named) l2_hashed=\(l2Hashed) strong_weight=\(strongWeight)"
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Fits the model. `provenance` is stored in it (training file, date).
    public func fit(_ examples: [RoutingExample], provenance: String = "") -> RouterModel {
        let inputs = examples.map { RouterInput(request: $0.request, hashBits: options.hashBits) }
        return fit(inputs: inputs, labels: examples.map(\.strong), provenance: provenance)
    }

    /// Fits the model from extracted inputs (cross-validation reuses them across folds).
    public func fit(inputs: [RouterInput], labels: [Bool], provenance: String = "") -> RouterModel {
        let o = options
        let namedCount = RouterFeature.allCases.count
        // Buckets that occur, renumbered densely after the named features and the bias.
        var local: [Int32: Int] = [:]
        var order: [Int32] = []
        for input in inputs {
            for b in input.buckets where local[b] == nil {
                local[b] = order.count
                order.append(b)
            }
        }
        let dims = 1 + namedCount + order.count
        let rows: [(index: [Int], value: [Double])] = inputs.map { input in
            var index = [0], value = [1.0]
            for (f, level) in input.levels.enumerated() where level != 0 { index.append(1 + f); value.append(level) }
            for (k, b) in input.buckets.enumerated() { index.append(1 + namedCount + local[b]!); value.append(Double(input.values[k])) }
            return (index, value)
        }
        let weightOf = labels.map { $0 ? o.strongWeight : 1.0 }
        let total = weightOf.reduce(0, +)
        var w = [Double](repeating: 0, count: dims)
        var m = w, v = w, g = w
        let beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8
        for step in 1...max(1, o.iterations) {
            for i in g.indices { g[i] = 0 }
            for (r, row) in rows.enumerated() {
                var z = 0.0
                for k in row.index.indices { z += w[row.index[k]] * row.value[k] }
                let err = (LearnedTierScorer.sigmoid(z) - (labels[r] ? 1 : 0)) * weightOf[r] / total
                for k in row.index.indices { g[row.index[k]] += err * row.value[k] }
            }
            for i in 1..<dims { g[i] += (i <= namedCount ? o.l2Named : o.l2Hashed) * w[i] }
            let c1 = 1 - pow(beta1, Double(step)), c2 = 1 - pow(beta2, Double(step))
            for i in 0..<dims {
                m[i] = beta1 * m[i] + (1 - beta1) * g[i]
                v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i]
                w[i] -= o.learningRate * (m[i] / c1) / ((v[i] / c2).squareRoot() + epsilon)
            }
        }
        var model = RouterModel(hashBits: o.hashBits, bias: w[0], named: Array(w[1...namedCount]), threshold: o.threshold,
                                provenance: provenance.isEmpty ? o.summary : provenance + "; " + o.summary)
        for (k, b) in order.enumerated() { model.hashed[Int(b)] = Float(w[1 + namedCount + k]) }
        // Round-trip through the file's precision, so a model in memory equals the same model read back.
        for i in model.named.indices { model.named[i] = RouterModel.rounded(model.named[i]) }
        model.bias = RouterModel.rounded(model.bias)
        for b in order { model.hashed[Int(b)] = Float(RouterModel.rounded(Double(model.hashed[Int(b)]))) }
        return model
    }

    /// K-fold cross-validation: each example is predicted by a model fitted without its fold
    /// (folds by position modulo `k`). Returns the predicted probabilities in input order.
    public func crossValidate(_ examples: [RoutingExample], folds k: Int) -> [Double] {
        let inputs = examples.map { RouterInput(request: $0.request, hashBits: options.hashBits) }
        let labels = examples.map(\.strong)
        var out = [Double](repeating: 0, count: examples.count)
        for fold in 0..<k {
            let train = inputs.indices.filter { $0 % k != fold }
            let model = fit(inputs: train.map { inputs[$0] }, labels: train.map { labels[$0] })
            for i in inputs.indices where i % k == fold {
                let l = model.logit(inputs[i])
                out[i] = LearnedTierScorer.sigmoid(l.named + l.grams)
            }
        }
        return out
    }
}
