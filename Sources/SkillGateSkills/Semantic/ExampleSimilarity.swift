/// How near a request is to each skill's example requests (`skill_ranking.examples`, decision 0045).
///
/// A skill's score is the mean cosine between the request's vector and the vectors of its example
/// requests, after each language's centre is taken out: every example vector minus the mean of
/// the examples in its script, the request's vector minus the mean of the examples in the
/// request's script. Every skill has examples in both languages, so the centring compares what
/// the texts say rather than which language they are in. Both sides are embedded as queries:
/// request against request is the comparison embedding models are best at.
///
/// This runs on every ranked request over every candidate's dozen examples, so the centred vectors
/// are never built: with `q` the centred request and `c` an example's centre,
/// `(q · (e − c)) / (|q| |e − c|)` is computed from `q · e`, `q · c`, `e · c` and `|e|²`.
public enum ExampleSimilarity {
    /// Fewer examples than this in one script: their mean is too rough a centre, so the mean of all
    /// examples stands in.
    static let minimumPerScript = 3

    /// One score per skill: `examples[i]` are skill `i`'s example vectors with their texts (for the
    /// script). A skill without examples gets the lowest score of the others.
    public static func scores(query: [Float], queryText: String, examples: [[(vector: [Float], text: String)]]) -> [Double] {
        let dims = query.count
        let scripts = examples.map { skill in skill.map { LanguageCentering.script(of: $0.text).rawValue } }
        guard examples.allSatisfy({ $0.allSatisfy { $0.vector.count == dims } }), examples.contains(where: { !$0.isEmpty }) else {
            return examples.map { _ in 0 }
        }
        // The centre of each script: the mean of its examples, or of all examples when it has too few.
        let scriptCount = LanguageCentering.Script.allCases.count
        var sums = [[Double]](repeating: [Double](repeating: 0, count: dims), count: scriptCount)
        var counts = [Int](repeating: 0, count: scriptCount)
        for (skill, skillScripts) in zip(examples, scripts) {
            for (example, script) in zip(skill, skillScripts) {
                counts[script] += 1
                example.vector.withUnsafeBufferPointer { v in
                    sums[script].withUnsafeMutableBufferPointer { s in for i in 0..<dims { s[i] += Double(v[i]) } }
                }
            }
        }
        let total = Double(counts.reduce(0, +))
        let all = (0..<dims).map { i in Float(sums.reduce(0) { $0 + $1[i] } / total) }
        let centres: [[Float]] = (0..<scriptCount).map { script in
            counts[script] >= minimumPerScript ? sums[script].map { Float($0 / Double(counts[script])) } : all
        }
        let q = LanguageCentering.subtract(query, centres[LanguageCentering.script(of: queryText).rawValue].map(Double.init))
        let qNorm = VectorMath.norm(q)
        let qDotCentre = centres.map { VectorMath.dot(q, $0) }
        let centreNormSquared = centres.map { VectorMath.dot($0, $0) }

        var scores: [Double?] = []
        for (skill, skillScripts) in zip(examples, scripts) {
            guard !skill.isEmpty else { scores.append(nil); continue }
            var sum = 0.0
            for (example, script) in zip(skill, skillScripts) {
                let d = dots(example.vector, q, centres[script])
                let normSquared = d.ee - 2 * d.ec + centreNormSquared[script]
                let n = qNorm * max(0, normSquared).squareRoot()
                sum += n == 0 ? 0 : (d.eq - qDotCentre[script]) / n  // NaN stays NaN, for `FiniteScores`
            }
            scores.append(sum / Double(skill.count))
        }
        let floor = scores.compactMap { $0 }.filter(\.isFinite).min() ?? 0
        return scores.map { $0 ?? floor }
    }

    /// `e · e`, `e · q` and `e · c` in one pass over `e` (all three of one length), eight lanes at a time. Summed in
    /// `Float`: every vector that reaches ranking is of unit length (`UnitVector`, decision 0102) and a centre is a mean
    /// of such vectors, so no sum can pass a few units, and `Double` lanes cost 2.5 times as much in this loop.
    static func dots(_ e: [Float], _ q: [Float], _ c: [Float]) -> (ee: Double, eq: Double, ec: Double) {
        e.withUnsafeBufferPointer { e in
            q.withUnsafeBufferPointer { q in
                c.withUnsafeBufferPointer { c in
                    var ee = SIMD8<Float>(), eq = SIMD8<Float>(), ec = SIMD8<Float>()
                    var i = 0
                    while i + 8 <= e.count {
                        let ev = lanes(e, i), qv = lanes(q, i), cv = lanes(c, i)
                        ee += ev * ev
                        eq += ev * qv
                        ec += ev * cv
                        i += 8
                    }
                    var tail = (ee: ee.sum(), eq: eq.sum(), ec: ec.sum())
                    while i < e.count {
                        tail.ee += e[i] * e[i]
                        tail.eq += e[i] * q[i]
                        tail.ec += e[i] * c[i]
                        i += 1
                    }
                    return (Double(tail.ee), Double(tail.eq), Double(tail.ec))
                }
            }
        }
    }

    /// Eight floats of `v` from `offset` (which leaves at least eight).
    @inline(__always)
    private static func lanes(_ v: UnsafeBufferPointer<Float>, _ offset: Int) -> SIMD8<Float> {
        UnsafeRawPointer(v.baseAddress! + offset).loadUnaligned(as: SIMD8<Float>.self)
    }
}
